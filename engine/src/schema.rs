//! JSON Schemas and Lua stubs (generated in a later step).

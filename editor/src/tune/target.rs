//! What a tuner aims at: a figure of `farebox sim --json` by its name (`first_mover_win_rate`,
//! `tie_rate`, `turns_mean`) or an element of one (`win_rate[2]`, the third seat's, counted
//! from 0 as in the JSON), a goal and a tolerance: `first_mover_win_rate=0.50±0.03` (or
//! `+-0.03`).

use farebox::figures::Stats;
use serde::Serialize;
use serde_json::Value;

/// A figure, its goal and how far from it still meets the target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    /// The figure's name in the JSON.
    pub figure: String,
    /// Its element, for a figure per seat.
    pub index: Option<usize>,
    pub goal: f64,
    pub tolerance: f64,
}

/// A figure as a run measured it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Measure {
    pub value: f64,
    /// Its 95% interval, where the run gives one.
    pub interval: Option<[f64; 2]>,
}

impl Target {
    /// Reads `figure=goal±tolerance`.
    pub fn parse(text: &str) -> Result<Target, String> {
        let bad = || {
            format!(
                "--target `{}` should be written FIGURE=GOAL±TOLERANCE, such as \
                 first_mover_win_rate=0.50±0.03 or win_rate[1]=0.33+-0.03",
                crate::common::shown(text, crate::common::MAX_SHOWN)
            )
        };
        let (name, rest) = text.split_once('=').ok_or_else(bad)?;
        let (goal, tol) = rest
            .split_once('±')
            .or_else(|| rest.split_once("+-"))
            .ok_or_else(bad)?;
        let goal: f64 = goal.trim().parse().map_err(|_| bad())?;
        let tolerance: f64 = tol.trim().parse().map_err(|_| bad())?;
        if !goal.is_finite() || !tolerance.is_finite() || tolerance <= 0.0 {
            return Err(format!("{}; the tolerance must be a number above 0", bad()));
        }
        let name = name.trim();
        let (figure, index) = match name.split_once('[') {
            Some((f, i)) => {
                let i = i.strip_suffix(']').ok_or_else(bad)?;
                (
                    f.to_string(),
                    Some(i.trim().parse::<usize>().map_err(|_| bad())?),
                )
            }
            None => (name.to_string(), None),
        };
        Ok(Target {
            figure,
            index,
            goal,
            tolerance,
        })
    }

    /// `first_mover_win_rate` or `win_rate[2]`.
    pub fn name(&self) -> String {
        match self.index {
            Some(i) => format!("{}[{i}]", self.figure),
            None => self.figure.clone(),
        }
    }

    /// `first_mover_win_rate = 0.5 ± 0.03`.
    pub fn words(&self) -> String {
        format!("{} = {} ± {}", self.name(), self.goal, self.tolerance)
    }

    /// Whether `value` meets the target.
    pub fn met_by(&self, value: f64) -> bool {
        (value - self.goal).abs() <= self.tolerance + 1e-12
    }

    /// Whether an interval reaches into the target's band.
    pub fn reached_by(&self, m: &Measure) -> bool {
        match m.interval {
            Some([lo, hi]) => {
                hi >= self.goal - self.tolerance - 1e-12 && lo <= self.goal + self.tolerance + 1e-12
            }
            None => self.met_by(m.value),
        }
    }

    /// Checks that runs of `seats` seats have this figure: the known names otherwise.
    pub fn check(&self, stats: &Stats, seats: u8) -> Result<(), String> {
        let json = serde_json::to_value(stats).map_err(|e| e.to_string())?;
        let known = figure_names(&json);
        let Some(kind) = known
            .iter()
            .find(|(n, _)| *n == self.figure)
            .map(|(_, k)| *k)
        else {
            let hint =
                farebox::diag::suggestion(&self.figure, known.iter().map(|(n, _)| n.as_str()));
            let list: Vec<String> = known
                .iter()
                .map(|(n, per_seat)| {
                    if *per_seat {
                        format!("{n}[I]")
                    } else {
                        n.clone()
                    }
                })
                .collect();
            return Err(format!(
                "`farebox sim --json` has no figure `{}`{hint}; a target can be {}",
                crate::common::shown(&self.figure, crate::common::MAX_SHOWN),
                list.join(", ")
            ));
        };
        match (kind, self.index) {
            (true, None) => Err(format!(
                "`{}` is a figure per seat: name one, as {}[0] for the first seat",
                self.figure, self.figure
            )),
            (true, Some(i)) if i >= usize::from(seats) => Err(format!(
                "`{}` has seats 0 to {} in a game of {seats} (counted from 0, as in the JSON)",
                self.name(),
                seats.saturating_sub(1)
            )),
            (false, Some(_)) => Err(format!(
                "`{}` is one figure for the whole game: name it without [..]",
                self.figure
            )),
            _ => Ok(()),
        }
    }

    /// This figure of a run (None when the run has none, as a first mover's win rate in
    /// games with no finished game).
    pub fn read(&self, stats: &Stats) -> Option<Measure> {
        let json = serde_json::to_value(stats).ok()?;
        let pick = |v: &Value| -> Option<Value> {
            match self.index {
                Some(i) => v.get(i).cloned(),
                None => Some(v.clone()),
            }
        };
        let value = pick(json.get(&self.figure)?)?.as_f64()?;
        let interval = interval_key(&self.figure)
            .iter()
            .find_map(|k| json.get(k))
            .and_then(pick)
            .and_then(|v| serde_json::from_value::<[f64; 2]>(v).ok());
        Some(Measure { value, interval })
    }
}

/// The keys that may hold a figure's interval: `X_interval`, and `X_interval` for `X_mean`.
fn interval_key(figure: &str) -> Vec<String> {
    let mut keys = vec![format!("{figure}_interval")];
    if let Some(base) = figure.strip_suffix("_mean") {
        keys.push(format!("{base}_interval"));
    }
    keys
}

/// The figures of a run's JSON a target can name, each with whether it is per seat: numbers,
/// lists of numbers, and figures a run may leave empty (null) that have an interval.
fn figure_names(json: &Value) -> Vec<(String, bool)> {
    let Some(map) = json.as_object() else {
        return vec![];
    };
    let mut out = vec![];
    for (k, v) in map {
        if k.ends_with("_interval") {
            continue;
        }
        let has_interval = interval_key(k).iter().any(|i| map.contains_key(i));
        match v {
            Value::Number(_) => out.push((k.clone(), false)),
            Value::Null if has_interval => out.push((k.clone(), false)),
            Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_number) => {
                out.push((k.clone(), true))
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Target;

    #[test]
    fn targets_read_with_either_sign() {
        let t = Target::parse("first_mover_win_rate=0.50±0.03").unwrap();
        assert_eq!(
            (t.figure.as_str(), t.index, t.goal, t.tolerance),
            ("first_mover_win_rate", None, 0.5, 0.03)
        );
        let t = Target::parse("win_rate[2]=0.33+-0.05").unwrap();
        assert_eq!((t.figure.as_str(), t.index), ("win_rate", Some(2)));
        assert!(Target::parse("win_rate=0.5").is_err());
        assert!(Target::parse("win_rate[x]=0.5±0.1").is_err());
        assert!(Target::parse("win_rate=0.5±0").is_err());
        assert!(t.met_by(0.30) && t.met_by(0.38) && !t.met_by(0.39));
    }
}

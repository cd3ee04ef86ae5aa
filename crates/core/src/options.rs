//! Game options: a JSON object of named values, checked against the
//! options a game declares so that a misspelt option is an error, not a
//! silently ignored wish.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::GameError;

/// The options a game was created with, such as `{"zombie_turn": true}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Options(pub BTreeMap<String, Value>);

/// The kind of value an option takes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum OptionKind {
    Bool,
    Int { min: i64, max: i64 },
    Choice { choices: Vec<String> },
    Text,
}

/// One option a game accepts, with its default and a line of help.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(optional_fields))]
pub struct OptionSpec {
    pub name: String,
    #[serde(flatten)]
    pub kind: OptionKind,
    /// The value the option takes when not given, of its kind.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub default: Value,
    pub help: String,
    /// The option's name in words, for a form's label ("Number of
    /// players"); clients fall back on `name` without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// An option most players never need (a referee's limit, a tuning
    /// knob): clients put it behind "More options". Serialised as
    /// `"advanced": true` only when true.
    #[serde(skip_serializing_if = "is_false")]
    // `advanced?: boolean` in TypeScript: absent when false.
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub advanced: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl OptionSpec {
    pub fn bool(name: &str, default: bool, help: &str) -> OptionSpec {
        OptionSpec {
            name: name.into(),
            kind: OptionKind::Bool,
            default: default.into(),
            help: help.into(),
            label: None,
            advanced: false,
        }
    }

    pub fn int(name: &str, min: i64, max: i64, default: i64, help: &str) -> OptionSpec {
        OptionSpec {
            name: name.into(),
            kind: OptionKind::Int { min, max },
            default: default.into(),
            help: help.into(),
            label: None,
            advanced: false,
        }
    }

    pub fn choice(name: &str, choices: &[&str], default: &str, help: &str) -> OptionSpec {
        OptionSpec {
            name: name.into(),
            kind: OptionKind::Choice { choices: choices.iter().map(|c| c.to_string()).collect() },
            default: default.into(),
            help: help.into(),
            label: None,
            advanced: false,
        }
    }

    /// Name the option in words for a form (see [`OptionSpec::label`]).
    pub fn label(mut self, label: &str) -> OptionSpec {
        self.label = Some(label.into());
        self
    }

    /// Mark the option as advanced: clients show it under "More options".
    pub fn advanced(mut self) -> OptionSpec {
        self.advanced = true;
        self
    }

    pub fn text(name: &str, default: &str, help: &str) -> OptionSpec {
        OptionSpec {
            name: name.into(),
            kind: OptionKind::Text,
            default: default.into(),
            help: help.into(),
            label: None,
            advanced: false,
        }
    }

    fn check(&self, value: &Value) -> Result<(), GameError> {
        let fail = |what: &str| Err(GameError::new(format!("option {:?} must be {what}, not {value}", self.name)));
        match &self.kind {
            OptionKind::Bool if !value.is_boolean() => fail("true or false"),
            OptionKind::Int { min, max } => match value.as_i64() {
                Some(n) if (*min..=*max).contains(&n) => Ok(()),
                _ => fail(&format!("a whole number from {min} to {max}")),
            },
            OptionKind::Choice { choices } => match value.as_str() {
                Some(s) if choices.iter().any(|c| c == s) => Ok(()),
                _ => fail(&format!("one of {}", choices.join(", "))),
            },
            OptionKind::Text if !value.is_string() => fail("a string"),
            _ => Ok(()),
        }
    }
}

impl Options {
    pub fn new() -> Options {
        Options::default()
    }

    /// Read options from a JSON value: an object, or null for none.
    pub fn from_json(value: &Value) -> Result<Options, GameError> {
        match value {
            Value::Null => Ok(Options::default()),
            Value::Object(map) => Ok(Options(map.iter().map(|(k, v)| (k.clone(), v.clone())).collect())),
            other => Err(GameError::new(format!("options must be a JSON object, not {other}"))),
        }
    }

    pub fn with(mut self, name: &str, value: impl Into<Value>) -> Options {
        self.0.insert(name.to_string(), value.into());
        self
    }

    /// Every option must be declared and of the declared kind.
    pub fn validate(&self, specs: &[OptionSpec]) -> Result<(), GameError> {
        for (name, value) in &self.0 {
            let Some(spec) = specs.iter().find(|s| &s.name == name) else {
                let known: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
                let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
                return Err(GameError::new(format!("unknown option {name:?} (this game's options: {known})")));
            };
            spec.check(value)?;
        }
        Ok(())
    }

    pub fn bool(&self, name: &str, default: bool) -> bool {
        self.0.get(name).and_then(Value::as_bool).unwrap_or(default)
    }

    pub fn int(&self, name: &str, default: i64) -> i64 {
        self.0.get(name).and_then(Value::as_i64).unwrap_or(default)
    }

    pub fn text<'a>(&'a self, name: &str, default: &'a str) -> &'a str {
        self.0.get(name).and_then(Value::as_str).unwrap_or(default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_and_ill_typed_options_are_refused() {
        let specs = [OptionSpec::bool("zombie_turn", false, "")];
        assert!(Options::new().with("zombie_turn", true).validate(&specs).is_ok());
        let err = Options::new().with("zombie_tun", true).validate(&specs).unwrap_err();
        assert!(err.0.contains("unknown option \"zombie_tun\""), "{err}");
        assert!(Options::new().with("zombie_turn", 3).validate(&specs).is_err());
    }

    #[test]
    fn advanced_is_serialised_only_when_true() {
        let plain = serde_json::to_value(OptionSpec::int("holes", 1, 18, 9, "")).unwrap();
        assert!(plain.get("advanced").is_none(), "{plain}");
        let advanced = serde_json::to_value(OptionSpec::int("nodes", 1, 9, 5, "").advanced()).unwrap();
        assert_eq!(advanced["advanced"], serde_json::Value::Bool(true), "{advanced}");
        assert_eq!(advanced["type"], "int");
    }
}

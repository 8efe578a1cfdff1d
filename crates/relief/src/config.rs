//! What a configuration that cannot work is: a [`ConfigError`] naming the field and why.
//! Every part's config checks itself (`validate`) and every constructor that takes one
//! refuses it with this error rather than panicking, overflowing or quietly changing it.

/// A setting that cannot work: `field` is its path in the config the caller passed
/// (`"pieces.load_radius"`, `"lod.size"`), `problem` what is wrong with the value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct ConfigError {
    pub field: String,
    pub problem: String,
}

impl ConfigError {
    pub fn new(field: impl Into<String>, problem: impl Into<String>) -> ConfigError {
        ConfigError {
            field: field.into(),
            problem: problem.into(),
        }
    }

    /// The same error inside a larger config: `prefix.field`.
    pub fn within(self, prefix: &str) -> ConfigError {
        ConfigError {
            field: format!("{prefix}.{}", self.field),
            problem: self.problem,
        }
    }
}

/// `Err` naming `field` unless `value` is finite and at least `min`.
pub(crate) fn at_least(field: &str, value: f64, min: f64) -> Result<(), ConfigError> {
    if value.is_finite() && value >= min {
        Ok(())
    } else {
        Err(ConfigError::new(
            field,
            format!("must be a finite number of at least {min}, is {value}"),
        ))
    }
}

/// `Err` naming `field` if `value` is above `max`.
pub(crate) fn at_most<T: PartialOrd + std::fmt::Debug>(
    field: &str,
    value: T,
    max: T,
) -> Result<(), ConfigError> {
    if value <= max {
        Ok(())
    } else {
        Err(ConfigError::new(
            field,
            format!("at most {max:?}, is {value:?}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_names_its_field_and_the_path_to_it() {
        let e = at_least("load_radius", f64::NAN, 0.0)
            .unwrap_err()
            .within("pieces");
        assert_eq!(e.field, "pieces.load_radius");
        assert_eq!(
            e.to_string(),
            "pieces.load_radius: must be a finite number of at least 0, is NaN"
        );
        assert!(at_least("x", 0.0, 0.0).is_ok());
        assert!(at_least("x", f64::INFINITY, 0.0).is_err());
        assert!(at_least("x", -1e-9, 0.0).is_err());
    }
}

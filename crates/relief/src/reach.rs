//! What flat worlds' and planets' river tables share: a reach's kind.

use serde::{Deserialize, Serialize};

/// Whether a reach is a creek (drains ≥ 0.045 km²) or a river (≥ 0.45 km²).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReachKind {
    Creek,
    River,
}

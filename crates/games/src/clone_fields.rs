//! [`clone_field_by_field!`]: a game's `Clone` whose `clone_from` reuses
//! what each field already holds.
//!
//! The search rewrites one copy of the game per child it keeps
//! (`SearchNode::child_into` in crates/core/src/search_node.rs calls
//! `clone_from`), and `#[derive(Clone)]` gives no `clone_from`: every
//! vector of the game would be allocated afresh at every node. Written
//! field by field, `Vec::clone_from` (and `Option`'s, and an array's)
//! copies into the allocation the slot already has.

/// `impl Clone for $game` cloning each named field, `clone_from` field by
/// field. Every field must be named: `clone` builds the struct from them,
/// so a field added later and not listed here does not compile.
macro_rules! clone_field_by_field {
    ($game:ident { $($field:ident),+ $(,)? }) => {
        impl Clone for $game {
            fn clone(&self) -> $game {
                $game { $($field: self.$field.clone()),+ }
            }

            fn clone_from(&mut self, source: &$game) {
                $(self.$field.clone_from(&source.$field);)+
            }
        }
    };
}

pub(crate) use clone_field_by_field;

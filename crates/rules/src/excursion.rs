//! Excursion Go 1 and 2 (`excursion-1`, `excursion-2`): a placement in enemy territory or next to
//! a friendly king places a king and crowns the friendly groups it touches; a turn that places a
//! king may not remove a king (always in form 1, right after an opponent's king in form 2). In
//! form 1 every stone placement turns all kings back into stones. Suicide is allowed.

use crate::board::{Board, JudgedPoint, LazyPreview, Placement};
use crate::geometry::Point;
use crate::spec::{OptionInfo, Options, SpecError};
use crate::stone_game::{CommonRules, StoneRules};
use crate::{Color, Illegal, Piece, StoneGame};

/// The two forms of the king restriction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExcursionForm {
    /// Excursion Go 1: a king placement may never remove a king; stone placements revert kings.
    One,
    /// Excursion Go 2: the restriction holds only right after an opponent's king placement.
    Two,
}

/// Excursion Go's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct ExcursionRules {
    pub(crate) common: CommonRules,
    /// Which form of the king rules.
    pub form: ExcursionForm,
}

impl ExcursionRules {
    /// The rules of one form with their defaults: suicide allowed, own-position draw, komi 7.5.
    pub fn new(form: ExcursionForm) -> Self {
        ExcursionRules {
            common: CommonRules { suicide_allowed: true, ..CommonRules::no_ko_with_draw() },
            form,
        }
    }

    /// Whether a placement of `mover` on the empty point `p` places a king: `p` lies in enemy
    /// territory or next to a friendly king.
    pub(crate) fn places_king(&self, board: &Board, mover: Color, p: Point) -> bool {
        board.next_to_king(p, mover) || board.territory_at_board_point::<false>(p, mover.opponent()).is_some()
    }
}

impl Default for ExcursionRules {
    fn default() -> Self {
        Self::new(ExcursionForm::One)
    }
}

/// A position of Excursion Go (either form).
pub type Excursion = StoneGame<ExcursionRules>;

impl StoneRules for ExcursionRules {
    /// Whether the last move placed a king.
    type Memory = bool;

    fn common(&self) -> &CommonRules {
        &self.common
    }

    fn judge(
        &self,
        board: &Board,
        mover: Color,
        p: Point,
        preview: &LazyPreview,
        last: bool,
    ) -> Result<bool, Illegal> {
        let king = self.places_king(board, mover, p);
        let restricted = match self.form {
            ExcursionForm::One => true,
            ExcursionForm::Two => last,
        };
        // Kings are only removed with the placed king's own group (suicide) or with a capture; in
        // form 1 a stone placement reverts every king first, so only king placements can.
        if king
            && restricted
            && (preview.suicide() || (preview.get().captured_groups > 0 && board.captures_king(p, mover)))
        {
            return Err(match self.form {
                ExcursionForm::One => Illegal::KingRemovesKing,
                ExcursionForm::Two => Illegal::KingRemovesKingAfterKing,
            });
        }
        Ok(king)
    }

    fn place(&self, board: &mut Board, mover: Color, p: JudgedPoint, king: bool) -> Placement {
        if !king && self.form == ExcursionForm::One {
            board.revert_kings();
        }
        board.place_judged(p, Piece { color: mover, king })
    }
}

impl Options for ExcursionRules {
    const INFO: &'static [OptionInfo] = &[OptionInfo::DRAW, OptionInfo::KOMI];

    crate::spec::common_in_field!();

    fn set(&mut self, _key: &str, _value: &str) -> Result<bool, SpecError> {
        Ok(false)
    }

    fn written(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

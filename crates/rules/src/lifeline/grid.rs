//! A turn worked out on bare cell codes before the shared [`Board`] is touched, and the deadness
//! test it needs, decided for the whole board at once.
//!
//! A group is dead when no path of empty points leads from it to another group of its colour.
//! Every group and every empty region is labelled in one sweep; a region *links* a colour when it
//! touches two or more groups of that colour, and a group lives exactly when a region it touches
//! links its colour: a path from one group to another runs through a single region, and any two
//! groups touching one region are joined by a path through it. So a whole board is judged in two
//! passes over the empty points' neighbours, whatever its shape.

use crate::Color;
use crate::board::{BORDER, Board, EMPTY, code};
use crate::geometry::{Geometry, MAX_SIDE, MAX_SLOTS, Point};

/// Points of the largest board.
const MAX_POINTS: usize = MAX_SIDE as usize * MAX_SIDE as usize;
/// Labels of the largest board: one per group or empty region, numbered from 1.
const MAX_LABELS: usize = MAX_POINTS + 1;

/// A board as bare cell codes (0 empty, 1 black, 2 white, 3 off the board), slot by slot as
/// [`Board`] lays them out: cheap to copy for every move judged, and the turn's stones and
/// removals are worked out on it before a legal turn is applied to the board.
pub(crate) struct Grid {
    geometry: Geometry,
    cells: [u8; MAX_SLOTS],
}

/// The stones a turn's removals took off, counted by side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Removed {
    /// The mover's opponent's stones (removed first).
    pub(crate) enemy: u32,
    /// The mover's own stones (removed on the board the enemy removals left).
    pub(crate) friendly: u32,
}

impl Grid {
    /// The cells of `board` (kings, which Square Lifeline has none of, read as stones).
    pub(crate) fn of(board: &Board) -> Self {
        let geometry = board.geometry();
        let mut cells = [BORDER; MAX_SLOTS];
        for (i, cell) in cells.iter_mut().enumerate().take(geometry.slots()) {
            *cell = board.cell(Point(i as u16)) & 3;
        }
        Grid { geometry, cells }
    }

    /// What stands on the point `p`.
    pub(crate) fn cell(&self, p: Point) -> u8 {
        self.cells[p.index()]
    }

    /// Puts a stone of `color` on `p`, removing nothing.
    pub(crate) fn put(&mut self, p: Point, color: Color) {
        self.cells[p.index()] = code(color);
    }

    /// The end of a turn of `mover`: every dead group of the opponent comes off, all decided on
    /// the board as the turn's stones left it; then every dead group of the mover, decided on the
    /// board those removals left.
    pub(crate) fn settle(&mut self, mover: Color) -> Removed {
        let labels = Labels::of(self);
        let enemy = self.remove_dead(&labels, code(mover.opponent()));
        // removals only open paths: a friendly group living before them lives after them, so the
        // board is labelled again only if a friendly group was dead before
        let friendly = if enemy > 0 && self.dead_stone_of(&labels, code(mover)).is_some() {
            self.remove_dead(&Labels::of(self), code(mover))
        } else {
            self.remove_dead(&labels, code(mover))
        };
        Removed { enemy, friendly }
    }

    /// A stone of some dead group, if the board holds one (set-up positions are refused then: no
    /// turn leaves one).
    pub(crate) fn dead_stone(&self) -> Option<Point> {
        let labels = Labels::of(self);
        [Color::Black, Color::White].into_iter().find_map(|c| self.dead_stone_of(&labels, code(c)))
    }

    /// A stone of cell code `kind` whose group `labels` finds dead, if any.
    fn dead_stone_of(&self, labels: &Labels, kind: u8) -> Option<Point> {
        (0..self.geometry.slots())
            .find(|&i| self.cells[i] == kind && !labels.living[labels.of[i] as usize])
            .map(|i| Point(i as u16))
    }

    /// Makes `board` hold what this grid holds, when the grid is `board` with a turn's stones
    /// put and whole groups of the board so formed removed: the stones go down first (joining
    /// chains), then each removed group comes off as the chain it is.
    pub(crate) fn apply_to(&self, board: &mut Board) {
        let slots = self.geometry.slots();
        for i in 0..slots {
            let p = Point(i as u16);
            if board.cell(p) == EMPTY && matches!(self.cells[i], 1 | 2) {
                let _ = board.put(p, self.cells[i]);
            }
        }
        for i in 0..slots {
            let p = Point(i as u16);
            if self.cells[i] == EMPTY && board.cell(p) != EMPTY {
                board.remove_chain(board.chain_head(p));
            }
        }
    }

    /// Empties every point of the groups of cell code `kind` that `labels` finds dead; returns
    /// the stones removed.
    fn remove_dead(&mut self, labels: &Labels, kind: u8) -> u32 {
        let mut removed = 0;
        for i in 0..self.geometry.slots() {
            if self.cells[i] == kind && !labels.living[labels.of[i] as usize] {
                self.cells[i] = EMPTY;
                removed += 1;
            }
        }
        removed
    }
}

/// Every group and empty region of a grid, and which groups live.
struct Labels {
    /// Each slot's group or region label, from 1; 0 off the board.
    of: [u16; MAX_SLOTS],
    /// Whether each label is a living group (false for regions).
    living: [bool; MAX_LABELS],
}

impl Labels {
    fn of(grid: &Grid) -> Self {
        let (geometry, cells) = (grid.geometry, &grid.cells);
        let mut labels = Labels { of: [0; MAX_SLOTS], living: [false; MAX_LABELS] };
        // the flood's queue: each group's or region's points, in the order they were labelled
        let mut queue = [0u16; MAX_POINTS];
        let mut label = 0;
        // the groups first, so that each region can name the groups it touches
        for (start, &cell) in cells.iter().enumerate().take(geometry.slots()) {
            if matches!(cell, 1 | 2) && labels.of[start] == 0 {
                label += 1;
                labels.flood(grid, start, label, &mut queue);
            }
        }
        for (start, &cell) in cells.iter().enumerate().take(geometry.slots()) {
            if cell != EMPTY || labels.of[start] != 0 {
                continue;
            }
            label += 1;
            let size = labels.flood(grid, start, label, &mut queue);
            let region = &queue[..size];
            // per colour, the first group the region touches, and whether it touches another
            let (mut first, mut links) = ([0u16; 2], [false; 2]);
            for &e in region {
                for n in geometry.neighbour_indices(Point(e)) {
                    if let stone @ (1 | 2) = cells[n] {
                        let (c, group) = (stone as usize - 1, labels.of[n]);
                        if first[c] == 0 {
                            first[c] = group;
                        }
                        links[c] |= first[c] != group;
                    }
                }
            }
            if links == [false; 2] {
                continue;
            }
            for &e in region {
                for n in geometry.neighbour_indices(Point(e)) {
                    if let stone @ (1 | 2) = cells[n]
                        && links[stone as usize - 1]
                    {
                        labels.living[labels.of[n] as usize] = true;
                    }
                }
            }
        }
        labels
    }

    /// Labels the group or region through `start` with `label`, its points in `queue`; returns
    /// how many there are.
    fn flood(&mut self, grid: &Grid, start: usize, label: u16, queue: &mut [u16; MAX_POINTS]) -> usize {
        let kind = grid.cells[start];
        self.of[start] = label;
        queue[0] = start as u16;
        let (mut next, mut end) = (0, 1);
        while next < end {
            for n in grid.geometry.neighbour_indices(Point(queue[next])) {
                if grid.cells[n] == kind && self.of[n] == 0 {
                    self.of[n] = label;
                    queue[end] = n as u16;
                    end += 1;
                }
            }
            next += 1;
        }
        end
    }
}

//! Borderline's live survey of a board: which stones are living or besieged and which points each
//! colour encloses, computed from scratch by the definitions of `shared/rules/borderline.md`
//! (flood fills with living stones as walls, surrounded groups, true eyes, legal points, the
//! fixed-point iteration between statuses and walls). Everything lives in fixed arrays, so that a
//! full survey is cheap enough to run at the end of every playout.

use crate::Color;
use crate::board::{BORDER, Board, EMPTY, code};
use crate::geometry::{Geometry, MAX_SLOTS, Point};

/// The zones of a Borderline board as index bounds on the slot array: Black's zone above the
/// Border, White's below. On 19x19 Black has rows 1-9 (from the top), the Border is row 10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Zones {
    /// First slot of the Border (the end of Black's zone).
    border_start: usize,
    /// First slot of White's zone (the end of the Border).
    white_start: usize,
    /// Rows of each zone and of the Border, for messages.
    zone_rows: u8,
    border_rows: u8,
}

/// Which part of the board a point lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Zone {
    /// A colour's own zone.
    Own(Color),
    /// The middle row, in both colours' attack and defence zones.
    Border,
}

impl Zones {
    /// The zones of a board: each colour gets half the rows (rounded down) and an odd middle row
    /// is the Border; an even number of rows has no Border.
    pub fn of(geometry: Geometry) -> Self {
        let height = geometry.height();
        let zone_rows = height / 2;
        let border_rows = height % 2;
        let stride = geometry.width() as usize + 1;
        Zones {
            border_start: (zone_rows as usize + 1) * stride,
            white_start: (zone_rows as usize + border_rows as usize + 1) * stride,
            zone_rows,
            border_rows,
        }
    }

    /// The zone of a point of the board.
    pub fn zone(&self, p: Point) -> Zone {
        let i = p.index();
        if i < self.border_start {
            Zone::Own(Color::Black)
        } else if i < self.white_start {
            Zone::Border
        } else {
            Zone::Own(Color::White)
        }
    }

    /// Whether `p` is in `c`'s own zone (where its deployment goes).
    #[inline(always)]
    pub fn in_own_zone(&self, c: Color, p: Point) -> bool {
        match c {
            Color::Black => p.index() < self.border_start,
            Color::White => p.index() >= self.white_start,
        }
    }

    /// Whether `p` is in `c`'s attack zone: the opponent's zone and the Border.
    #[inline(always)]
    pub fn in_attack_zone(&self, c: Color, p: Point) -> bool {
        !self.in_own_zone(c, p)
    }

    /// Whether `p` is in `c`'s defence zone: its own zone and the Border.
    #[inline(always)]
    pub fn in_defence_zone(&self, c: Color, p: Point) -> bool {
        !self.in_own_zone(c.opponent(), p)
    }

    /// The rows of `c`'s own zone, counted from 1 at the top: `(first, last)`.
    pub fn own_rows(&self, c: Color) -> (u8, u8) {
        match c {
            Color::Black => (1, self.zone_rows),
            Color::White => {
                let first = self.zone_rows + self.border_rows + 1;
                (first, first + self.zone_rows - 1)
            }
        }
    }
}

/// A stone's status: there are no dead stones and no seki in Borderline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StoneStatus {
    /// A wall of enclosures, scoring where it stands.
    Living,
    /// Surrounded without two true eyes or four legal points: scores for the besieger.
    Besieged,
}

/// The raw counts a survey finds for one colour, before the score weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Own living stones in the own attack zone.
    pub live_stones: u32,
    /// Points of the own attack zone in an own enclosure: empty, or holding a besieged enemy stone.
    pub enclosed_points: u32,
    /// Enemy stones besieged on the own defence zone.
    pub besieged_enemies: u32,
}

/// Per-point statuses and enclosures of one board, with the counts the score is made of.
#[derive(Clone, Debug)]
pub struct Survey {
    geometry: Geometry,
    /// Per slot: 1 for a besieged stone, 0 otherwise.
    besieged: [bool; MAX_SLOTS],
    /// Per slot: 0 for no owner, else the colour code of the enclosure the point belongs to.
    owner: [u8; MAX_SLOTS],
    /// Black's and White's counts.
    pub counts: [Counts; 2],
    /// Rounds of the status iteration (1 when no group could ever be besieged).
    pub rounds: u32,
    /// Whether the statuses cycled instead of settling (the cycle rule chose among them).
    pub cycled: bool,
}

impl Survey {
    /// The status of the stone on `p`, or `None` on an empty point.
    pub fn status(&self, board: &Board, p: Point) -> Option<StoneStatus> {
        board.color(p)?;
        Some(if self.besieged[p.index()] { StoneStatus::Besieged } else { StoneStatus::Living })
    }

    /// The colour whose enclosure `p` belongs to after the innermost rule, if any.
    pub fn enclosed_by(&self, p: Point) -> Option<Color> {
        match self.owner.get(p.index()) {
            Some(1) => Some(Color::Black),
            Some(2) => Some(Color::White),
            _ => None,
        }
    }

    /// The board's shape.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Surveys a board.
    pub fn of(board: &Board, zones: &Zones) -> Survey {
        let mut work = Work::new(board);
        work.count_eyes(board);
        let Settled { rounds, besieged, cycled } = work.settle(board);
        let mut survey = Survey {
            geometry: board.geometry(),
            besieged: [false; MAX_SLOTS],
            owner: [0; MAX_SLOTS],
            counts: [Counts::default(); 2],
            rounds,
            cycled,
        };
        work.flood(board, Color::Black, &besieged);
        work.flood(board, Color::White, &besieged);
        let [Some(black), Some(white)] = &work.floods else { unreachable!("both colours were flooded") };
        let floods = [&black.flood, &white.flood];
        for p in board.geometry().points() {
            let i = p.index();
            let piece = board.cell(p) & 3;
            if piece != EMPTY {
                survey.besieged[i] = besieged[work.group_of[i] as usize];
            }
            survey.owner[i] = match (floods[0].enclosed_size(p), floods[1].enclosed_size(p)) {
                (Some(_), None) => code(Color::Black),
                (None, Some(_)) => code(Color::White),
                (Some(b), Some(w)) if b < w => code(Color::Black),
                (Some(b), Some(w)) if w < b => code(Color::White),
                _ => 0,
            };
            for c in [Color::Black, Color::White] {
                let counts = &mut survey.counts[c as usize];
                let attack = zones.in_attack_zone(c, p);
                if piece == code(c) && !survey.besieged[i] && attack {
                    counts.live_stones += 1;
                }
                let enemy = piece == code(c.opponent());
                if enemy && survey.besieged[i] && zones.in_defence_zone(c, p) {
                    counts.besieged_enemies += 1;
                }
                if survey.owner[i] == code(c) && attack && (piece == EMPTY || (enemy && survey.besieged[i])) {
                    counts.enclosed_points += 1;
                }
            }
        }
        survey
    }
}

/// No group: the mark of empty points and of the border in `group_of`.
const NO_GROUP: u16 = u16::MAX;

/// Fewer legal points than this (and fewer than two true eyes) lets a surrounded group be besieged.
const LEGAL_POINTS_TO_LIVE: u8 = 4;

/// True eyes a surrounded group needs to live.
const EYES_TO_LIVE: u8 = 2;

/// How the status iteration ended.
struct Settled {
    rounds: u32,
    /// Per group.
    besieged: Vec<bool>,
    cycled: bool,
}

/// Scratch space of one survey.
struct Work {
    /// Per slot: the index of the group whose stone stands there.
    group_of: [u16; MAX_SLOTS],
    /// Per group: a stone of it (its chain's head) and its colour.
    groups: Vec<(Point, Color)>,
    /// Per group: its true eyes (up to two).
    eyes: Vec<u8>,
    /// Per group, once asked: whether it is weak, i.e. could be besieged if surrounded (fewer
    /// than two true eyes and four legal points). Asked only of surrounded groups.
    weak: Vec<Option<bool>>,
    /// Per slot: the last group whose legal-point flood reached it.
    stamps: [u16; MAX_SLOTS],
    /// The depth-first stack of the legal-point floods.
    stack: Vec<Point>,
    /// The last flood of each colour.
    floods: [Option<CachedFlood>; 2],
}

/// One colour's flood: the connected regions of the points that are not its living stones,
/// found by union-find over the rows (each point joined to its left and upper neighbours).
struct Flood {
    /// Per slot: the region's root slot, or [`NO_REGION`] for a wall (and for the border).
    root: [u16; MAX_SLOTS],
    /// Per root slot: the region's points.
    size: [u16; MAX_SLOTS],
    /// Per root slot: the region's points on the board's edge.
    edge: [u16; MAX_SLOTS],
    /// The most edge points of any region: regions with fewer are enclosed.
    most_edge: u16,
}

/// Not in any region: a wall, or off the board.
const NO_REGION: u16 = u16::MAX;

impl Flood {
    /// The size of the enclosed region holding `p`, or `None` if `p` is a wall or outside.
    fn enclosed_size(&self, p: Point) -> Option<u16> {
        let root = self.root[p.index()];
        if root == NO_REGION {
            return None;
        }
        let root = root as usize;
        (self.edge[root] < self.most_edge).then_some(self.size[root])
    }

    /// The root of `p`'s region, halving the path on the way.
    fn find(&mut self, mut p: u16) -> u16 {
        while self.root[p as usize] != p {
            let grandparent = self.root[self.root[p as usize] as usize];
            self.root[p as usize] = grandparent;
            p = grandparent;
        }
        p
    }

    fn union(&mut self, a: u16, b: u16) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            // the smaller slot becomes the root: any rule works, this one is deterministic
            let (low, high) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.root[high as usize] = low;
        }
    }
}

/// The floods of one colour kept between rounds: walls change only when that colour's statuses
/// do, so a colour whose statuses did not change is not flooded again.
struct CachedFlood {
    /// The colour's besieged groups the walls were built from.
    besieged: Vec<u16>,
    flood: Box<Flood>,
}

impl Work {
    fn new(board: &Board) -> Self {
        let mut work = Work {
            group_of: [NO_GROUP; MAX_SLOTS],
            groups: Vec::new(),
            eyes: Vec::new(),
            weak: Vec::new(),
            stamps: [NO_GROUP; MAX_SLOTS],
            stack: Vec::with_capacity(board.geometry().area()),
            floods: [None, None],
        };
        for p in board.geometry().points() {
            let Some(color) = board.color(p) else { continue };
            let head = board.chain_head(p);
            if work.group_of[head.index()] == NO_GROUP {
                work.group_of[head.index()] = work.groups.len() as u16;
                work.groups.push((head, color));
            }
            work.group_of[p.index()] = work.group_of[head.index()];
        }
        work.weak = vec![None; work.groups.len()];
        work
    }

    /// Counts every group's true eyes (independent of the statuses).
    fn count_eyes(&mut self, board: &Board) {
        let eyes = &mut self.eyes;
        eyes.resize(self.groups.len(), 0);
        for &e in board.empties() {
            let Some(owner) = board.enclosing_color(e) else { continue };
            // a true eye: the opponent may not play there (it would be suicide); the owner playing
            // there captures nothing, since only its own stones stand around
            if !board.preview(e, owner.opponent()).suicide {
                continue;
            }
            let mut counted = [NO_GROUP; 4];
            for (k, n) in board.geometry().neighbours(e).into_iter().enumerate() {
                let g = self.group_of[n.index()];
                if g != NO_GROUP && !counted.contains(&g) {
                    counted[k] = g;
                    eyes[g as usize] = eyes[g as usize].saturating_add(1);
                }
            }
        }
    }

    /// Whether a group could be besieged if surrounded: fewer than two true eyes and fewer than
    /// four legal points. Remembered, and shared with the groups its legal-point flood reached.
    fn is_weak(&mut self, board: &Board, group: usize) -> bool {
        if let Some(weak) = self.weak[group] {
            return weak;
        }
        if self.eyes[group] >= EYES_TO_LIVE {
            self.weak[group] = Some(false);
            return false;
        }
        let (start, color) = self.groups[group];
        let stamp = group as u16;
        self.stack.clear();
        self.stack.push(start);
        self.stamps[start.index()] = stamp;
        let mut reached = vec![group];
        let mut legal = 0;
        'flood: while let Some(p) = self.stack.pop() {
            for n in board.geometry().neighbours(p) {
                if self.stamps[n.index()] == stamp || board.cell(n) == BORDER {
                    continue;
                }
                let cell = board.cell(n) & 3;
                if cell == EMPTY {
                    if !board.preview(n, color).suicide {
                        legal += 1;
                        if legal >= LEGAL_POINTS_TO_LIVE {
                            break 'flood;
                        }
                    }
                } else if cell == code(color) {
                    reached.push(self.group_of[n.index()] as usize);
                } else {
                    continue;
                }
                self.stamps[n.index()] = stamp;
                self.stack.push(n);
            }
        }
        // the groups one flood reached share its legal points: a complete flood counted them
        // all, a cut-short one found four for every group it reached
        let roomy = legal >= LEGAL_POINTS_TO_LIVE;
        for g in reached {
            self.weak[g] = Some(self.eyes[g] < EYES_TO_LIVE && !roomy);
        }
        self.weak[group].expect("judged above")
    }

    /// Runs the simultaneous status iteration from "every stone living" until it settles or
    /// cycles.
    fn settle(&mut self, board: &Board) -> Settled {
        let mut besieged = vec![false; self.groups.len()];
        let mut history: Vec<Vec<bool>> = Vec::new();
        loop {
            // the walls of each colour come from the previous round's statuses
            self.flood(board, Color::Black, &besieged);
            self.flood(board, Color::White, &besieged);
            let next: Vec<bool> = (0..self.groups.len())
                .map(|g| {
                    let (stone, color) = self.groups[g];
                    let flood = &self.floods[color.opponent() as usize].as_ref().expect("flooded").flood;
                    flood.enclosed_size(stone).is_some() && self.is_weak(board, g)
                })
                .collect();
            if next == besieged {
                return Settled { rounds: history.len() as u32 + 1, besieged, cycled: false };
            }
            history.push(std::mem::replace(&mut besieged, next));
            if let Some(start) = history.iter().position(|state| *state == besieged) {
                // a cycle from `start` to the last state: the most besieged stones, earliest first
                let rounds = history.len() as u32 + 1;
                let stones = |state: &Vec<bool>| -> u32 {
                    (0..state.len())
                        .filter(|&g| state[g])
                        .map(|g| board.chain_size(self.groups[g].0) as u32)
                        .sum()
                };
                let cycle = &history[start..];
                let best = cycle
                    .iter()
                    .enumerate()
                    .max_by_key(|(i, state)| (stones(state), std::cmp::Reverse(*i)))
                    .map(|(_, state)| state.clone())
                    .expect("a cycle has states");
                return Settled { rounds, besieged: best, cycled: true };
            }
        }
    }

    /// The flood of the board with `c`'s living stones as walls under these statuses, from
    /// the cache when `c`'s statuses are the ones it was built from.
    fn flood(&mut self, board: &Board, c: Color, besieged: &[bool]) -> &Flood {
        let key: Vec<u16> = (0..self.groups.len())
            .filter(|&g| besieged[g] && self.groups[g].1 == c)
            .map(|g| g as u16)
            .collect();
        let fresh = match &self.floods[c as usize] {
            Some(cached) => cached.besieged != key,
            None => true,
        };
        if fresh {
            let flood = self.build_flood(board, c, besieged);
            self.floods[c as usize] = Some(CachedFlood { besieged: key, flood });
        }
        &self.floods[c as usize].as_ref().expect("just built").flood
    }

    /// Labels the regions of the points that are not `c`'s living stones.
    fn build_flood(&self, board: &Board, c: Color, besieged: &[bool]) -> Box<Flood> {
        let mut flood = Box::new(Flood {
            root: [NO_REGION; MAX_SLOTS],
            size: [0; MAX_SLOTS],
            edge: [0; MAX_SLOTS],
            most_edge: 0,
        });
        let geometry = board.geometry();
        let stride = geometry.stride() as u16;
        let wall = code(c);
        for p in geometry.points() {
            let i = p.index();
            if board.cell(p) & 3 == wall && !besieged[self.group_of[i] as usize] {
                continue;
            }
            let slot = i as u16;
            flood.root[i] = slot;
            // the left and upper neighbours are already labelled (the border never is)
            for n in [slot - 1, slot - stride] {
                if flood.root[n as usize] != NO_REGION {
                    flood.union(slot, n);
                }
            }
        }
        for p in geometry.points() {
            if flood.root[p.index()] == NO_REGION {
                continue;
            }
            let root = flood.find(p.index() as u16);
            flood.root[p.index()] = root;
            flood.size[root as usize] += 1;
            flood.edge[root as usize] += board.on_edge(p) as u16;
        }
        flood.most_edge = geometry.points().map(|p| flood.edge[p.index()]).max().unwrap_or(0);
        flood
    }
}

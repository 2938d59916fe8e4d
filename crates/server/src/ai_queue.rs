//! The AI's worker slots, shared fairly between games. A search waits for a free slot; when
//! several wait, the game that has had the least AI time so far goes first, so that long
//! searches in a few games cannot keep a new game waiting for its first move behind all of them
//! (a first-come queue made an unrelated game wait 25 s behind ten level-10 games). Waiting
//! counts in a search's favour ([`AGING`]), so that a long game is never starved while its clock
//! runs. The queue's length is known, so that new games against the AI can be refused while it
//! is too long.

use std::sync::{Arc, Mutex};

use tokio::time::Instant;

use tokio::sync::oneshot;

use crate::locked;

/// The slots and the searches waiting for one.
#[derive(Debug)]
pub struct AiQueue {
    slots: usize,
    state: Mutex<State>,
}

/// How much AI time a second of waiting is worth: after a second in the queue, a search ranks
/// as if its game had had ten seconds less of the AI.
const AGING: u64 = 10;

#[derive(Debug, Default)]
struct State {
    /// Slots in use.
    running: usize,
    /// Who waits, in order of arrival.
    waiting: Vec<Waiter>,
}

/// A search waiting for a slot.
#[derive(Debug)]
struct Waiter {
    used_ms: u64,
    since: Instant,
    wake: oneshot::Sender<Slot>,
}

impl Waiter {
    /// Lower goes first: the game's AI time less what its wait is worth.
    fn rank(&self, now: Instant) -> i128 {
        i128::from(self.used_ms) - (now - self.since).as_millis() as i128 * i128::from(AGING)
    }
}

/// A slot held: when it is dropped, the slot goes to the next waiter, or back to the pool.
#[derive(Debug)]
pub struct Slot {
    /// None once the slot has been handed on by other means (a waiter that left).
    queue: Option<Arc<AiQueue>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(queue) = self.queue.take() {
            queue.release();
        }
    }
}

impl AiQueue {
    /// A queue with `slots` searches at once (at least one).
    pub fn new(slots: usize) -> Arc<Self> {
        Arc::new(AiQueue { slots: slots.max(1), state: Mutex::default() })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        locked(&self.state)
    }

    /// Searches waiting for a slot.
    pub fn waiting(&self) -> usize {
        self.state().waiting.len()
    }

    /// Waits for a slot for a game that has had `used_ms` of AI time so far.
    pub async fn slot(self: &Arc<Self>, used_ms: u64) -> Slot {
        let granted = {
            let mut state = self.state();
            if state.running < self.slots {
                state.running += 1;
                return Slot { queue: Some(self.clone()) };
            }
            let (wake, granted) = oneshot::channel();
            state.waiting.push(Waiter { used_ms, since: Instant::now(), wake });
            granted
        };
        let since = Instant::now();
        // the sender lives in the queue until a slot is handed over: it is never dropped unsent
        let slot = granted.await.expect("a waiter is woken with a slot");
        metrics::histogram!(crate::metrics::AI_WAIT).record(since.elapsed().as_secs_f64());
        slot
    }

    /// Hands a freed slot to the first waiter still there, or gives it back.
    fn release(self: Arc<Self>) {
        let mut state = self.state();
        let now = Instant::now();
        // the lowest rank, the first come among equals
        while let Some(first) = (0..state.waiting.len()).min_by_key(|&i| (state.waiting[i].rank(now), i)) {
            let waiter = state.waiting.remove(first);
            match waiter.wake.send(Slot { queue: Some(self.clone()) }) {
                Ok(()) => return,
                // the waiter left (its request was dropped): the slot is not handed on through
                // it, but to the next one here
                Err(mut unsent) => {
                    unsent.queue = None;
                }
            }
        }
        state.running -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Order = Arc<Mutex<Vec<&'static str>>>;

    /// Starts a search of a game with `used_ms` of AI time that writes `name` down once it has a
    /// slot; returns once it waits.
    async fn in_line(
        queue: &Arc<AiQueue>,
        order: &Order,
        name: &'static str,
        used_ms: u64,
    ) -> tokio::task::JoinHandle<()> {
        let before = queue.waiting();
        let (waiter, order) = (queue.clone(), order.clone());
        let task = tokio::spawn(async move {
            let _slot = waiter.slot(used_ms).await;
            order.lock().unwrap().push(name);
        });
        while queue.waiting() == before {
            tokio::task::yield_now().await;
        }
        task
    }

    /// With the one slot busy, three games wait; the game with the least AI time goes first
    /// whatever the order they came in, then the others by AI time.
    #[tokio::test]
    async fn the_game_with_the_least_ai_time_gets_the_next_slot() {
        let queue = AiQueue::new(1);
        let busy = queue.slot(0).await;
        let order = Order::default();
        let mut tasks = Vec::new();
        for (name, used_ms) in [("heavy", 50_000), ("medium", 20_000), ("new", 0)] {
            tasks.push(in_line(&queue, &order, name, used_ms).await);
        }
        drop(busy);
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), ["new", "medium", "heavy"]);
        assert_eq!(queue.waiting(), 0);
    }

    /// A search that has waited long enough goes before a game with less AI time.
    #[tokio::test(start_paused = true)]
    async fn waiting_counts_in_a_search_s_favour() {
        let queue = AiQueue::new(1);
        let busy = queue.slot(0).await;
        let order = Order::default();
        let mut tasks = Vec::new();
        for (name, used_ms) in [("long game, waiting 10 s", 60_000), ("new game", 0)] {
            tasks.push(in_line(&queue, &order, name, used_ms).await);
            tokio::time::advance(std::time::Duration::from_secs(10)).await;
        }
        drop(busy);
        for task in tasks {
            task.await.unwrap();
        }
        // the long game ranks 60 s - 20 s waited x 10 = -140 s, the new one 0 - 10 s x 10 = -100 s
        assert_eq!(*order.lock().unwrap(), ["long game, waiting 10 s", "new game"]);
    }

    /// A waiter that gives up does not take a slot with it.
    #[tokio::test]
    async fn a_waiter_that_leaves_passes_the_slot_on() {
        let queue = AiQueue::new(1);
        let busy = queue.slot(0).await;
        let leaving = tokio::spawn({
            let queue = queue.clone();
            async move { queue.slot(0).await }
        });
        while queue.waiting() < 1 {
            tokio::task::yield_now().await;
        }
        leaving.abort();
        let _ = leaving.await;
        drop(busy);
        let again = tokio::time::timeout(std::time::Duration::from_secs(5), queue.slot(0)).await;
        assert!(again.is_ok(), "the slot came back");
    }
}

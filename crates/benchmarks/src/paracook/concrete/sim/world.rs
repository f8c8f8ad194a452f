//! The world a plan acts on: what lies on each station and in each hand, the cookware's
//! clocks, the plate return's queue, the orders still open, and the interactions between
//! them, each with the game's rule (and its error text) where the game refuses.

use std::collections::VecDeque;

use serde_json::{json, Map, Value};

use super::super::kitchen::{Cell, ContainerKind, Kitchen, StationKind};
use super::plan::number;
use super::Mode;

/// An ingredient unit and its state (`raw`, `chopped`, `cooked`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ingredient {
    /// Its name (`tomato`).
    pub name: String,
    /// Its state.
    pub state: String,
}

/// A pan's or pot's cooking clock, as the game keeps it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Clock {
    /// When the clock last ran (0 until the first ingredient; the game then sets it once).
    pub current_time: f64,
    /// Cooking time credited so far.
    pub processed: f64,
    /// Cooking time the contents need in all (24 or 16 per unit ever added).
    pub required: f64,
    /// Whether contents wait to be cooked.
    pub is_cooking: bool,
}

/// Anything a hand or a station can hold.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A loose ingredient.
    Ingredient(Ingredient),
    /// A clean plate and what is on it.
    Plate(Vec<Ingredient>),
    /// A pan or a pot, its contents and clock.
    Cookware(ContainerKind, Vec<Ingredient>, Clock),
    /// A plate back from a serve, to be washed.
    DirtyPlate,
}

impl Item {
    fn container_contents(&mut self) -> Option<&mut Vec<Ingredient>> {
        match self {
            Item::Plate(c) | Item::Cookware(_, c, _) => Some(c),
            _ => None,
        }
    }

    fn is_container(&self) -> bool {
        matches!(self, Item::Plate(_) | Item::Cookware(..))
    }

    /// The item as the game's world snapshot writes it.
    pub fn to_json(&self) -> Value {
        let contents = |c: &[Ingredient]| -> Value {
            c.iter()
                .map(|i| json!({"name": i.name, "state": i.state}))
                .collect()
        };
        match self {
            Item::Ingredient(i) => json!({"name": i.name, "state": i.state}),
            Item::Plate(c) => {
                json!({"name": "plate", "type": "container", "contents": contents(c)})
            }
            Item::Cookware(kind, c, clock) => json!({
                "name": kind.name(),
                "type": "container",
                "contents": contents(c),
                "finished": false,
                "processed_cook_time": number(clock.processed),
                "required_cook_time": number(clock.required),
                "is_cooking": clock.is_cooking,
            }),
            Item::DirtyPlate => json!({"name": "dirty_plate", "type": "dirty_plate"}),
        }
    }
}

/// A station's state.
#[derive(Debug, Clone)]
pub struct Station {
    /// Index of its tile in the kitchen.
    pub tile: usize,
    /// What stands on it.
    pub item: Option<Item>,
    /// The game's use flag, set when a cook starts to interact or process and cleared when
    /// any interaction with it completes.
    pub in_use: bool,
    /// The cook that set the flag.
    pub current_user: Option<usize>,
    /// Plate return: times dirty plates are due.
    pub return_time: VecDeque<f64>,
    /// Plate return: dirty plates waiting.
    pub dirty_plates: u32,
}

/// A refusal by the game: its text, and whether it is a rule of the game (`ValueError`), of
/// the harness's action layer (`ActionExecutionError`) or a crash of the game's code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The game's message.
    pub message: String,
    /// Which kind of error the game raises.
    pub class: ErrorClass,
}

/// The game's error classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorClass {
    /// `ActionExecutionError`: the action cannot start (no path, not nearby, no such station).
    Execution,
    /// `ValueError`: an interaction the game's rules refuse.
    Rule,
    /// Another exception of the game's code (`IndexError` serving with no order left,
    /// `NotImplementedError` after processing on a stove, a missing field).
    Crash,
    /// A rule of the prompt that the game itself does not enforce (intended mode only).
    Intended,
}

pub(crate) fn rule(message: impl Into<String>) -> Refusal {
    Refusal {
        message: message.into(),
        class: ErrorClass::Rule,
    }
}

pub(crate) fn crash(message: impl Into<String>) -> Refusal {
    Refusal {
        message: message.into(),
        class: ErrorClass::Crash,
    }
}

pub(crate) fn execution(message: impl Into<String>) -> Refusal {
    Refusal {
        message: message.into(),
        class: ErrorClass::Execution,
    }
}

/// The world: stations, hands, open orders.
#[derive(Debug, Clone)]
pub struct World<'k> {
    /// The kitchen it started from.
    pub kitchen: &'k Kitchen,
    /// The rules in force.
    pub mode: Mode,
    /// One per tile, in the kitchen's order.
    pub stations: Vec<Station>,
    /// What each cook holds.
    pub holding: Vec<Option<Item>>,
    /// Each cook's cell.
    pub positions: Vec<Cell>,
    /// Open orders, first to be served first.
    pub orders: VecDeque<String>,
    /// Served orders and when.
    pub served: Vec<(String, f64)>,
}

const PAN_ITEMS: [&str; 6] = ["meat", "chicken", "mushroom", "tomato", "fish", "prawn"];
const POT_ITEMS: [&str; 2] = ["rice", "pasta"];

impl<'k> World<'k> {
    /// The world at time 0.
    pub fn new(kitchen: &'k Kitchen, mode: Mode) -> World<'k> {
        let stations = kitchen
            .map
            .tiles
            .iter()
            .enumerate()
            .map(|(i, t)| Station {
                tile: i,
                item: t.item.map(|c| match c {
                    ContainerKind::Plate => Item::Plate(Vec::new()),
                    kind => Item::Cookware(kind, Vec::new(), Clock::default()),
                }),
                in_use: false,
                current_user: None,
                return_time: VecDeque::new(),
                dirty_plates: 0,
            })
            .collect();
        World {
            kitchen,
            mode,
            stations,
            holding: vec![None; kitchen.agents()],
            positions: kitchen.map.agents.iter().map(|a| (a.x, a.y)).collect(),
            orders: kitchen.orders.iter().cloned().collect(),
            served: Vec::new(),
        }
    }

    /// The kind of station `s`.
    pub fn kind(&self, s: usize) -> StationKind {
        self.kitchen.map.tiles[s].kind
    }

    /// Runs the stations' clocks at an event: cookware on stoves cooks, dirty plates that
    /// are due appear.
    pub fn update_stations(&mut self, now: f64) {
        let kinds: Vec<StationKind> = self.kitchen.map.tiles.iter().map(|t| t.kind).collect();
        for (station, kind) in self.stations.iter_mut().zip(kinds) {
            match kind {
                StationKind::Stove => {
                    if let Some(Item::Cookware(_, contents, clock)) = &mut station.item {
                        update_cooking(contents, clock, now);
                    }
                }
                StationKind::PlateReturn => {
                    while station.return_time.front().is_some_and(|&t| t <= now) {
                        station.return_time.pop_front();
                        station.dirty_plates += 1;
                    }
                }
                _ => {}
            }
        }
    }

    /// Whether a station lets `agent` start an interaction now (the game locks chopping
    /// boards while a cook uses them; the prompt says the same of the sink).
    pub fn can_use(&self, s: usize, agent: usize) -> bool {
        let exclusive = match self.kind(s) {
            StationKind::ChoppingBoard => true,
            StationKind::Sink => self.mode == Mode::Intended,
            _ => false,
        };
        let st = &self.stations[s];
        !exclusive || !st.in_use || st.current_user == Some(agent)
    }

    /// An `Interact` completing: the station's rule applied to the cook's hand.
    pub fn interact(&mut self, s: usize, agent: usize, now: f64) -> Result<(), Refusal> {
        match self.kind(s) {
            StationKind::Wall => Err(rule("Wall cannot be interacted with")),
            StationKind::Table => self.basic_interact(s, agent, now),
            StationKind::Dispenser => {
                if self.holding[agent].is_none() && self.stations[s].item.is_none() {
                    let provides = self.kitchen.map.tiles[s]
                        .provides
                        .clone()
                        .unwrap_or_default();
                    self.holding[agent] = Some(Item::Ingredient(Ingredient {
                        name: provides,
                        state: "raw".into(),
                    }));
                    Ok(())
                } else {
                    self.basic_interact(s, agent, now)
                }
            }
            StationKind::ChoppingBoard => {
                if !self.can_use(s, agent) {
                    return Err(rule("Chopping board is currently in use"));
                }
                self.basic_interact(s, agent, now)
            }
            StationKind::Stove => self.stove_interact(s, agent, now),
            StationKind::ServingWindow => self.serve(agent, now),
            StationKind::Sink => {
                let st = &mut self.stations[s];
                match &self.holding[agent] {
                    None => match st.item {
                        Some(Item::Plate(_)) => {
                            self.holding[agent] = st.item.take();
                            Ok(())
                        }
                        _ => Err(rule(
                            "Agent is empty-handed and there's no washed plate on the sink to pick up",
                        )),
                    },
                    Some(Item::DirtyPlate) if st.item.is_none() => {
                        st.item = self.holding[agent].take();
                        Ok(())
                    }
                    Some(_) => Err(rule(
                        "Can only place dirty plates for washing, or pick up washed plates",
                    )),
                }
            }
            StationKind::PlateReturn => {
                if self.holding[agent].is_some() {
                    return Err(rule("Cannot pick up dirty plate while holding something"));
                }
                let st = &mut self.stations[s];
                if st.dirty_plates == 0 {
                    return Err(rule("No dirty plates available to pick up"));
                }
                st.dirty_plates -= 1;
                self.holding[agent] = Some(Item::DirtyPlate);
                Ok(())
            }
            StationKind::Trash => match &mut self.holding[agent] {
                None => Err(rule("No item in hand to discard")),
                Some(item) => {
                    match item.container_contents() {
                        Some(contents) => contents.clear(),
                        None => self.holding[agent] = None,
                    }
                    Ok(())
                }
            },
        }
    }

    /// A `Process` completing: chopping or washing (a stove's process is a crash of the
    /// game: it has none).
    pub fn process(&mut self, s: usize, agent: usize) -> Result<(), Refusal> {
        match self.kind(s) {
            StationKind::ChoppingBoard => {
                if !self.can_use(s, agent) {
                    return Err(rule("Chopping board is currently in use"));
                }
                match &mut self.stations[s].item {
                    Some(Item::Ingredient(ing)) => {
                        if ing.state == "raw" {
                            ing.state = "chopped".into();
                            Ok(())
                        } else {
                            Err(rule(
                                "Ingredient on chopping board is not in a state that can be cut",
                            ))
                        }
                    }
                    _ => Err(rule("No ingredient on the chopping board to cut")),
                }
            }
            StationKind::Sink => {
                if !self.can_use(s, agent) {
                    return Err(rule("Sink is currently in use"));
                }
                let st = &mut self.stations[s];
                match st.item {
                    Some(Item::DirtyPlate) => {
                        st.item = Some(Item::Plate(Vec::new()));
                        Ok(())
                    }
                    _ => Err(rule("No dirty plate on the sink to wash")),
                }
            }
            StationKind::Wall => Err(rule("Wall cannot be processed")),
            _ => Err(crash("The subclass must implement the process method")),
        }
    }

    /// Puts `ing` into cookware or onto a plate, with the pan's and pot's rules.
    fn add_item(target: &mut Item, ing: Ingredient, now: f64, mode: Mode) -> Result<(), Refusal> {
        match target {
            Item::Plate(c) => {
                c.push(ing);
                Ok(())
            }
            Item::Cookware(kind, c, clock) => {
                let (accepted, state, time, message) = match kind {
                    ContainerKind::Pan => (
                        &PAN_ITEMS[..],
                        "chopped",
                        24.0,
                        "Can only put chopped ingredients (meat, chicken, mushroom, tomato, fish, prawn) into the pan for cooking",
                    ),
                    _ => (&POT_ITEMS[..], "raw", 16.0, "Can only put raw rice or pasta for boiling"),
                };
                if !accepted.contains(&ing.name.as_str()) || ing.state != state {
                    return Err(rule(message));
                }
                c.push(ing);
                match mode {
                    Mode::Replica => {
                        if clock.current_time == 0.0 {
                            clock.current_time = now;
                        }
                    }
                    // A new batch starts its own clock; a running one keeps going.
                    Mode::Intended => {
                        if !clock.is_cooking {
                            clock.current_time = now;
                        }
                    }
                }
                clock.is_cooking = true;
                clock.required += time;
                Ok(())
            }
            _ => Err(rule("Cannot place the held item on the station")),
        }
    }

    /// Tables, dispenser tops and boards: pick up, put down, combine.
    fn basic_interact(&mut self, s: usize, agent: usize, now: f64) -> Result<(), Refusal> {
        let mode = self.mode;
        let st = &mut self.stations[s];
        let hand = &mut self.holding[agent];
        let Some(held) = hand else {
            return match st.item.take() {
                Some(item) => {
                    *hand = Some(item);
                    Ok(())
                }
                None => Err(rule(
                    "The agent is empty-handed and there's nothing on the station to pick up",
                )),
            };
        };
        let Some(on) = &mut st.item else {
            st.item = hand.take();
            return Ok(());
        };
        match (held, on) {
            (held, Item::Ingredient(ing)) if held.is_container() => {
                let ing = ing.clone();
                World::add_item(held, ing, now, mode)?;
                st.item = None;
                Ok(())
            }
            (Item::Ingredient(ing), on) if on.is_container() => {
                let ing = ing.clone();
                World::add_item(on, ing, now, mode)?;
                *hand = None;
                Ok(())
            }
            (Item::Plate(plate), on) if on.is_container() => {
                if let Some(c) = on.container_contents() {
                    plate.append(c);
                }
                Ok(())
            }
            (held @ Item::Cookware(..), Item::Plate(plate)) => {
                if let Some(c) = held.container_contents() {
                    plate.append(c);
                }
                Ok(())
            }
            _ => Err(rule("Cannot place the held item on the station")),
        }
    }

    /// Stoves hold only cookware; a held plate takes all of the cookware's contents.
    fn stove_interact(&mut self, s: usize, agent: usize, now: f64) -> Result<(), Refusal> {
        let mode = self.mode;
        let st = &mut self.stations[s];
        let hand = &mut self.holding[agent];
        match (hand.as_mut(), st.item.as_mut()) {
            (None, Some(_)) => {
                *hand = st.item.take();
                Ok(())
            }
            (None, None) => Err(rule(
                "The agent is empty-handed and there's nothing on the stove to pick up",
            )),
            (Some(Item::Cookware(..)), None) => {
                st.item = hand.take();
                if let (Mode::Intended, Some(Item::Cookware(_, _, clock))) = (mode, &mut st.item) {
                    // Cooking resumes from the moment the cookware is back on the fire.
                    clock.current_time = now;
                }
                Ok(())
            }
            (Some(Item::Ingredient(ing)), Some(on @ Item::Cookware(..))) => {
                let ing = ing.clone();
                World::add_item(on, ing, now, mode)?;
                *hand = None;
                Ok(())
            }
            (Some(Item::Plate(plate)), Some(Item::Cookware(_, c, _))) => {
                plate.append(c);
                Ok(())
            }
            _ => Err(rule(
                "Can only place or pick up cookware (pot/pan) on the stove",
            )),
        }
    }

    /// The serving window: the plate in hand must be the first open order.
    fn serve(&mut self, agent: usize, now: f64) -> Result<(), Refusal> {
        if now == 0.0 {
            return Err(rule("Current time must be provided to handle serving"));
        }
        let served_dish = self.holding[agent].as_ref().map(Item::to_json);
        let Some(Item::Plate(contents)) = &self.holding[agent] else {
            return Err(rule("Can only serve food on a plate"));
        };
        let Some(order) = self.orders.front().cloned() else {
            return Err(crash("list index out of range"));
        };
        let Some(recipe) = self.kitchen.recipe(&order) else {
            return Err(rule(format!(
                "The dish on the plate does not match the current order. Current dish: {}, Current order: {order}",
                super::plan::py_repr(&served_dish.unwrap_or(Value::Null))
            )));
        };
        if contents.len() != recipe.ingredients.len() {
            let shown: Vec<String> = contents
                .iter()
                .map(|i| format!("Ingredient(name='{}', state='{}')", i.name, i.state))
                .collect();
            return Err(rule(format!(
                "Container contents count does not match recipe requirements. Contents: [{}]",
                shown.join(", ")
            )));
        }
        let mut have: Vec<String> = contents
            .iter()
            .map(|i| format!("{}:{}", i.name, i.state))
            .collect();
        let mut want: Vec<String> = recipe
            .ingredients
            .iter()
            .map(|i| format!("{}:{}", i.item, i.state))
            .collect();
        have.sort();
        want.sort();
        if have != want {
            return Err(rule(format!(
                "The dish on the plate does not match the current order. Current dish: {}, Current order: {order}",
                super::plan::py_repr(&served_dish.unwrap_or(Value::Null))
            )));
        }
        self.holding[agent] = None;
        let return_time = now + self.kitchen.constants.return_time as f64;
        if let Some(ret) = self
            .kitchen
            .map
            .tiles
            .iter()
            .position(|t| t.kind == StationKind::PlateReturn)
        {
            self.stations[ret].return_time.push_back(return_time);
        }
        self.orders.pop_front();
        self.served.push((order, now));
        Ok(())
    }

    /// The station as the game's world snapshot writes it.
    pub fn station_json(&self, s: usize) -> Value {
        let tile = &self.kitchen.map.tiles[s];
        let st = &self.stations[s];
        let mut m = Map::new();
        m.insert("name".into(), tile.name.clone().into());
        let kind = if tile.kind == StationKind::Wall {
            "obstacle"
        } else {
            "station"
        };
        m.insert("type".into(), kind.into());
        m.insert("x".into(), tile.x.into());
        m.insert("y".into(), tile.y.into());
        m.insert(
            "item".into(),
            st.item.as_ref().map_or(Value::Null, Item::to_json),
        );
        m.insert("in_use".into(), st.in_use.into());
        m.insert(
            "current_user".into(),
            st.current_user.map_or(Value::Null, |a| {
                self.kitchen.map.agents[a].name.clone().into()
            }),
        );
        if tile.kind == StationKind::Dispenser {
            m.insert(
                "provides".into(),
                tile.provides.clone().map_or(Value::Null, Value::from),
            );
        }
        if tile.kind == StationKind::PlateReturn {
            m.insert("dirty_plates_sum".into(), st.dirty_plates.into());
        }
        Value::Object(m)
    }
}

/// The cookware clock at an event, for cookware standing on a stove. The game credits all
/// the time since the clock last ran, on the stove or not, and never resets the clock
/// between batches; the prompt's rules credit only time on the stove (the clock restarts
/// when cookware is put back and when a new batch starts).
fn update_cooking(contents: &mut [Ingredient], clock: &mut Clock, now: f64) {
    if !clock.is_cooking {
        return;
    }
    let duration = now - clock.current_time;
    clock.current_time = now;
    if clock.processed + duration >= clock.required {
        clock.processed = clock.required;
        clock.is_cooking = false;
        for ing in contents {
            ing.state = "cooked".into();
        }
    } else {
        clock.processed += duration;
    }
}

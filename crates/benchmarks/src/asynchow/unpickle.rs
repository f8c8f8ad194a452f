//! A small unpickler for plain-data pickles (protocol 2 to 5): lists, tuples, dicts, sets,
//! strings, numbers, and calls of named classes such as `datetime.timedelta`, which are
//! kept as their class name and arguments. Nothing is ever imported or executed.
//!
//! Why not `serde-pickle` (1.2.0)? It counts references to memoised objects to avoid
//! clones, and the count is wrong for shared objects nested in shared objects: the AsyncHow
//! pickles share each step-dependency tuple between `edge_list` and `step_deps`, and
//! `serde-pickle` fails on them with "recursive structure found" (or, with
//! `replace_recursive_structures`, silently turns live values into `None`); see
//! birkenfeld/serde-pickle PR #24. Here shared objects are reference-counted (`Rc`), as in
//! CPython, so sharing is always right and a reference costs no copy.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A Python value. Lists, dicts and sets are shared and mutable, because a pickle creates
/// them empty, memoises them, and fills them afterwards.
#[derive(Debug, Clone)]
pub(super) enum Py {
    /// None, a bool or a float: no reader here needs their value, only what they are
    /// (for messages), so only that is kept.
    Opaque(&'static str),
    Int(i64),
    Str(Rc<str>),
    /// A list or a set (set order is irrelevant to every reader here).
    List(Rc<RefCell<Vec<Py>>>),
    Tuple(Rc<[Py]>),
    Dict(Rc<RefCell<Vec<(Py, Py)>>>),
    /// A reference to a class or function, `module.name`.
    Global(Rc<str>),
    /// The result of calling a global: `datetime.timedelta(0, 900, 0)`.
    Call {
        callee: Rc<str>,
        args: Rc<[Py]>,
    },
}

impl Py {
    pub(super) fn as_str(&self) -> Option<&str> {
        match self {
            Py::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(super) fn as_int(&self) -> Option<i64> {
        match self {
            Py::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The items of a list, set or tuple.
    pub(super) fn items(&self) -> Option<Vec<Py>> {
        match self {
            Py::List(items) => Some(items.borrow().clone()),
            Py::Tuple(items) => Some(items.to_vec()),
            _ => None,
        }
    }

    /// The entries of a dict, in insertion order.
    pub(super) fn entries(&self) -> Option<Vec<(Py, Py)>> {
        match self {
            Py::Dict(entries) => Some(entries.borrow().clone()),
            _ => None,
        }
    }

    /// What a message calls this kind of value.
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Py::Opaque(kind) => kind,
            Py::Int(_) => "an int",
            Py::Str(_) => "a string",
            Py::List(_) => "a list or set",
            Py::Tuple(_) => "a tuple",
            Py::Dict(_) => "a dict",
            Py::Global(_) => "a class reference",
            Py::Call { .. } => "an object",
        }
    }
}

/// Why a pickle could not be read: the byte offset of the opcode, and what went wrong.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct PickleError {
    pub(super) at: usize,
    pub(super) message: String,
}

/// Reads one pickled value from `bytes`.
pub(super) fn unpickle(bytes: &[u8]) -> Result<Py, PickleError> {
    let mut machine = Machine {
        bytes,
        pos: 0,
        stack: Vec::new(),
        marks: Vec::new(),
        memo: HashMap::new(),
        heights: HashMap::new(),
    };
    loop {
        let at = machine.pos;
        match machine.step() {
            Ok(Some(value)) => {
                return match super::nesting::check_depth(&value) {
                    Ok(()) => Ok(value),
                    Err(message) => {
                        super::nesting::dismantle([value]);
                        Err(PickleError { at, message })
                    }
                }
            }
            Ok(None) => {}
            Err(message) => return Err(PickleError { at, message }),
        }
    }
}

/// The pickle virtual machine's state.
struct Machine<'a> {
    bytes: &'a [u8],
    pos: usize,
    stack: Vec<Py>,
    /// Stack lengths at each `MARK`.
    marks: Vec<usize>,
    memo: HashMap<u32, Py>,
    /// The height of each container with items (an empty one is 1), by identity: nesting is
    /// checked as each container is built or filled, not once the value is complete (120 MB
    /// of nested lists took 7.7 GB before that check). [`super::nesting::check_depth`] still
    /// checks the whole value at `STOP` (a container filled after it was nested in another).
    heights: HashMap<usize, usize>,
}

/// The most values the stack may hold at once: Python's pickler batches lists, sets and dicts
/// 1,000 items at a time, so only a tuple of a million items comes near it, and without it
/// one opcode byte per empty list piles up 72 bytes each.
const MAX_STACK: usize = 1_000_000;

/// The most memoised values: the benchmark's largest pickle memoises 127,519, and without a
/// cap five million one-byte `MEMOIZE` opcodes held 617 MB.
const MAX_MEMO: usize = 1_000_000;

/// The stack and memo may hold values nested too deep to drop recursively.
impl Drop for Machine<'_> {
    fn drop(&mut self) {
        let memo = std::mem::take(&mut self.memo).into_values();
        super::nesting::dismantle(std::mem::take(&mut self.stack).into_iter().chain(memo));
    }
}

impl Machine<'_> {
    /// Runs one opcode; `Some` with the result at `STOP`.
    fn step(&mut self) -> Result<Option<Py>, String> {
        if self.stack.len() > MAX_STACK {
            return Err(format!(
                "more than {MAX_STACK} values wait on the stack at once (a pickle batches lists and dicts by 1,000): not a benchmark pickle"
            ));
        }
        let op = self.take(1)?[0];
        match op {
            0x80 => {
                let protocol = self.take(1)?[0];
                if !(2..=5).contains(&protocol) {
                    return Err(format!(
                        "pickle protocol {protocol} is not supported (2 to 5 are)"
                    ));
                }
            }
            0x95 => {
                self.take(8)?; // FRAME: a length hint only
            }
            b'.' => return self.pop().map(Some),
            b'(' => self.marks.push(self.stack.len()),
            b'0' => {
                self.pop()?;
            }
            b'1' => {
                self.pop_mark()?;
            }
            b'N' => self.stack.push(Py::Opaque("None")),
            0x88 | 0x89 => self.stack.push(Py::Opaque("a bool")),
            b'K' => {
                let v = self.take(1)?[0];
                self.stack.push(Py::Int(v.into()));
            }
            b'M' => {
                let v = u16::from_le_bytes(self.array()?);
                self.stack.push(Py::Int(v.into()));
            }
            b'J' => {
                let v = i32::from_le_bytes(self.array()?);
                self.stack.push(Py::Int(v.into()));
            }
            0x8a => {
                let n = self.take(1)?[0] as usize;
                let v = self.long(n)?;
                self.stack.push(Py::Int(v));
            }
            b'G' => {
                self.take(8)?;
                self.stack.push(Py::Opaque("a float"));
            }
            0x8c => {
                let n = self.take(1)?[0] as usize;
                self.string(n)?;
            }
            b'X' => {
                let n = u32::from_le_bytes(self.array()?);
                self.string(n as usize)?;
            }
            0x8d => {
                let n = u64::from_le_bytes(self.array()?);
                self.string(usize::try_from(n).map_err(|_| "string too long".to_string())?)?;
            }
            b']' | 0x8f => self.built(Py::List(Rc::default()), 0)?,
            b'}' => self.built(Py::Dict(Rc::default()), 0)?,
            b')' => self.built(Py::Tuple(Rc::from([])), 0)?,
            b'l' => {
                let items = self.pop_mark()?;
                let below = self.tallest(&items);
                self.built(Py::List(Rc::new(RefCell::new(items))), below)?;
            }
            b't' | 0x91 => {
                let items = self.pop_mark()?;
                let below = self.tallest(&items);
                self.built(Py::Tuple(items.into()), below)?;
            }
            0x85..=0x87 => {
                let n = usize::from(op - 0x84);
                let at = self.stack.len().checked_sub(n).ok_or("stack underflow")?;
                let items = self.stack.split_off(at);
                let below = self.tallest(&items);
                self.built(Py::Tuple(items.into()), below)?;
            }
            b'a' => {
                let item = self.pop()?;
                self.extend_list(vec![item])?;
            }
            b'e' | 0x90 => {
                let items = self.pop_mark()?;
                self.extend_list(items)?;
            }
            b'd' => {
                let items = self.pop_mark()?;
                self.built(Py::Dict(Rc::default()), 0)?;
                self.set_items(items)?;
            }
            b's' => {
                let value = self.pop()?;
                let key = self.pop()?;
                self.set_items(vec![key, value])?;
            }
            b'u' => {
                let items = self.pop_mark()?;
                self.set_items(items)?;
            }
            0x94 => {
                let id = u32::try_from(self.memo.len()).map_err(|_| "memo too large")?;
                self.put(id)?;
            }
            b'q' => {
                let id = self.take(1)?[0];
                self.put(id.into())?;
            }
            b'r' => {
                let id = u32::from_le_bytes(self.array()?);
                self.put(id)?;
            }
            b'h' => {
                let id = self.take(1)?[0];
                self.get(id.into())?;
            }
            b'j' => {
                let id = u32::from_le_bytes(self.array()?);
                self.get(id)?;
            }
            0x93 => {
                let name = self.pop()?;
                let module = self.pop()?;
                match (module.as_str(), name.as_str()) {
                    (Some(m), Some(n)) => self.stack.push(Py::Global(format!("{m}.{n}").into())),
                    _ => return Err("STACK_GLOBAL needs a module and a name string".into()),
                }
            }
            b'R' => {
                let args = self.pop()?;
                let callee = self.pop()?;
                match (callee, args) {
                    (Py::Global(callee), Py::Tuple(args)) => {
                        self.stack.push(Py::Call { callee, args })
                    }
                    _ => return Err("REDUCE needs a class reference and an argument tuple".into()),
                }
            }
            other => {
                return Err(format!(
                    "unsupported pickle opcode 0x{other:02x}; only plain data (lists, tuples, \
                     dicts, sets, strings, numbers, class calls) can be read"
                ))
            }
        }
        Ok(None)
    }

    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let end =
            end.ok_or_else(|| "the pickle ends too early (is the file truncated?)".to_string())?;
        let slice = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    /// A little-endian two's-complement integer of `n` bytes (`LONG1`).
    fn long(&mut self, n: usize) -> Result<i64, String> {
        if n > 8 {
            return Err(format!("an integer of {n} bytes does not fit in 64 bits"));
        }
        let bytes = self.take(n)?;
        let fill = if bytes.last().is_some_and(|b| b & 0x80 != 0) {
            0xff
        } else {
            0
        };
        let mut full = [fill; 8];
        full[..n].copy_from_slice(bytes);
        Ok(i64::from_le_bytes(full))
    }

    fn string(&mut self, n: usize) -> Result<(), String> {
        let text = std::str::from_utf8(self.take(n)?)
            .map_err(|_| "a string is not valid UTF-8".to_string())?;
        let value = Py::Str(text.into());
        self.stack.push(value);
        Ok(())
    }

    fn pop(&mut self) -> Result<Py, String> {
        self.stack
            .pop()
            .ok_or_else(|| "stack underflow".to_string())
    }

    fn pop_mark(&mut self) -> Result<Vec<Py>, String> {
        let mark = self
            .marks
            .pop()
            .ok_or("an opcode needs a MARK that is missing")?;
        if mark > self.stack.len() {
            return Err("stack underflow".into());
        }
        Ok(self.stack.split_off(mark))
    }

    /// The height of a value: 0 for a scalar, 1 for an empty container.
    fn height(&self, value: &Py) -> usize {
        super::nesting::identity(value).map_or(0, |id| self.heights.get(&id).copied().unwrap_or(1))
    }

    /// The tallest of `items`.
    fn tallest(&self, items: &[Py]) -> usize {
        items.iter().map(|v| self.height(v)).max().unwrap_or(0)
    }

    /// Records that `container` holds values as tall as `below`; too deep is an error.
    fn nest(&mut self, container: &Py, below: usize) -> Result<(), String> {
        let Some(id) = super::nesting::identity(container) else {
            return Ok(());
        };
        let height = self.height(container).max(below + 1);
        if height > super::nesting::MAX_DEPTH {
            return Err(super::nesting::too_deep());
        }
        if height > 1 {
            self.heights.insert(id, height);
        }
        Ok(())
    }

    /// Pushes a new container whose items are as tall as `below` (its address may be a freed
    /// container's, so any height recorded there is dropped first).
    fn built(&mut self, value: Py, below: usize) -> Result<(), String> {
        if let Some(id) = super::nesting::identity(&value) {
            self.heights.remove(&id);
        }
        if let Err(why) = self.nest(&value, below) {
            super::nesting::dismantle([value]);
            return Err(why);
        }
        self.stack.push(value);
        Ok(())
    }

    fn extend_list(&mut self, items: Vec<Py>) -> Result<(), String> {
        let list = match self.stack.last() {
            Some(list @ Py::List(_)) => list.clone(),
            other => {
                return Err(format!(
                    "cannot append to {}",
                    other.map_or("nothing", Py::kind)
                ))
            }
        };
        self.fill(&list, items, |items| {
            if let Py::List(list) = &list {
                list.borrow_mut().extend(items);
            }
        })
    }

    fn set_items(&mut self, items: Vec<Py>) -> Result<(), String> {
        if !items.len().is_multiple_of(2) {
            return Err("a dict needs key-value pairs".into());
        }
        let dict = match self.stack.last() {
            Some(dict @ Py::Dict(_)) => dict.clone(),
            other => {
                return Err(format!(
                    "cannot set items of {}",
                    other.map_or("nothing", Py::kind)
                ))
            }
        };
        self.fill(&dict, items, |items| {
            if let Py::Dict(dict) = &dict {
                let mut dict = dict.borrow_mut();
                let mut items = items.into_iter();
                while let (Some(k), Some(v)) = (items.next(), items.next()) {
                    dict.push((k, v));
                }
            }
        })
    }

    /// Puts `items` into `container` with `put` once their nesting is checked; refused items
    /// are freed without recursion.
    fn fill(
        &mut self,
        container: &Py,
        items: Vec<Py>,
        put: impl FnOnce(Vec<Py>),
    ) -> Result<(), String> {
        let below = self.tallest(&items);
        match self.nest(container, below) {
            Ok(()) => {
                put(items);
                Ok(())
            }
            Err(why) => {
                super::nesting::dismantle(items);
                Err(why)
            }
        }
    }

    fn put(&mut self, id: u32) -> Result<(), String> {
        let top = self.stack.last().ok_or("nothing to memoise")?.clone();
        if self.memo.len() >= MAX_MEMO && !self.memo.contains_key(&id) {
            return Err(format!(
                "more than {MAX_MEMO} memoised values (the benchmark's largest pickle has 127,519): not a benchmark pickle"
            ));
        }
        self.memo.insert(id, top);
        Ok(())
    }

    fn get(&mut self, id: u32) -> Result<(), String> {
        let value = self
            .memo
            .get(&id)
            .ok_or_else(|| format!("memo entry {id} is missing"))?
            .clone();
        self.stack.push(value);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each byte string below is `pickle.dumps(value, protocol=4)` from CPython 3.11.

    #[test]
    fn shared_objects_stay_shared_after_they_are_filled() {
        // t = ("1", "2"); pickle.dumps({"edge_list": [t], "step_deps": {t}}, protocol=4)
        let bytes = b"\x80\x04\x950\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\tedge_list\x94]\x94\x8c\x011\x94\x8c\x012\x94\x86\x94a\x8c\tstep_deps\x94\x8f\x94(h\x05\x90u.";
        let root = unpickle(bytes).unwrap();
        let entries = root.entries().unwrap();
        assert_eq!(entries[0].0.as_str(), Some("edge_list"));
        for (_, value) in &entries {
            let tuple = value.items().unwrap()[0].items().unwrap();
            assert_eq!(tuple[0].as_str(), Some("1"));
            assert_eq!(tuple[1].as_str(), Some("2"));
        }
    }

    #[test]
    fn class_calls_keep_their_arguments() {
        // pickle.dumps([datetime.timedelta(days=1, seconds=5), -70000, 2**40], protocol=4)
        let bytes = b"\x80\x04\x955\x00\x00\x00\x00\x00\x00\x00]\x94(\x8c\x08datetime\x94\x8c\ttimedelta\x94\x93\x94K\x01K\x05K\x00\x87\x94R\x94J\x90\xee\xfe\xff\x8a\x06\x00\x00\x00\x00\x00\x01e.";
        let items = unpickle(bytes).unwrap().items().unwrap();
        match &items[0] {
            Py::Call { callee, args } => {
                assert_eq!(&**callee, "datetime.timedelta");
                let args: Vec<i64> = args.iter().filter_map(Py::as_int).collect();
                assert_eq!(args, [1, 5, 0]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(items[1].as_int(), Some(-70_000));
        assert_eq!(items[2].as_int(), Some(1 << 40));
    }

    #[test]
    fn memoising_past_the_cap_is_refused() {
        let mut bytes = b"\x80\x04N".to_vec();
        bytes.extend(std::iter::repeat_n(0x94, MAX_MEMO + 1));
        bytes.push(b'.');
        let err = unpickle(&bytes).unwrap_err();
        assert_eq!(err.at, 3 + MAX_MEMO);
        assert!(err.message.contains("memoised values"), "{}", err.message);
    }

    #[test]
    fn truncated_and_unsupported_pickles_are_errors() {
        let err = unpickle(b"\x80\x04\x95\x05\x00\x00\x00\x00\x00\x00\x00]\x94(K").unwrap_err();
        assert_eq!(err.at, 14);
        assert!(err.message.contains("truncated"), "{err:?}");
        let err = unpickle(b"\x80\x04\x81").unwrap_err();
        assert!(
            err.message.contains("unsupported pickle opcode 0x81"),
            "{err:?}"
        );
        assert!(unpickle(b"\x80\x04.")
            .unwrap_err()
            .message
            .contains("underflow"));
        assert!(unpickle(b"\x80\x04e").unwrap_err().message.contains("MARK"));
        assert!(unpickle(b"\x80\x04h\x07")
            .unwrap_err()
            .message
            .contains("memo entry 7"));
    }
}

//! Deeply nested pickles. The unpickler builds values with an explicit stack, so reading
//! never recurses; but walking a value and dropping it do, and 400 KB of pickle can nest
//! 200,000 lists. [`check_depth`] measures the nesting without recursion (and refuses a
//! value that contains itself), and [`dismantle`] frees values without recursion, so
//! neither a refused pickle nor a half-read one can overflow the stack.

use std::collections::HashMap;
use std::rc::Rc;

use super::unpickle::Py;

/// Deepest nesting of lists, tuples, dicts and calls a pickle may have (AsyncHow's own
/// nest 6 deep).
pub(super) const MAX_DEPTH: usize = 200;

/// Identity of a container value, for values shared through the memo.
pub(super) fn identity(value: &Py) -> Option<usize> {
    match value {
        Py::List(v) => Some(Rc::as_ptr(v) as *const u8 as usize),
        Py::Dict(v) => Some(Rc::as_ptr(v) as *const u8 as usize),
        Py::Tuple(v) => Some(Rc::as_ptr(v) as *const u8 as usize),
        Py::Call { args, .. } => Some(Rc::as_ptr(args) as *const u8 as usize),
        _ => None,
    }
}

fn children(value: &Py) -> Vec<Py> {
    match value {
        Py::List(items) => items.borrow().clone(),
        Py::Tuple(items) => items.to_vec(),
        Py::Dict(entries) => entries
            .borrow()
            .iter()
            .flat_map(|(k, v)| [k.clone(), v.clone()])
            .collect(),
        Py::Call { args, .. } => args.to_vec(),
        _ => Vec::new(),
    }
}

/// `Err` when `root` nests deeper than [`MAX_DEPTH`] or contains itself.
pub(super) fn check_depth(root: &Py) -> Result<(), String> {
    // Height of every container already measured (shared ones are measured once).
    let mut height: HashMap<usize, usize> = HashMap::new();
    // The path from the root: each container, its children and the next one to visit.
    let mut path: Vec<(usize, Vec<Py>, usize, usize)> = Vec::new();
    let Some(id) = identity(root) else {
        return Ok(());
    };
    path.push((id, children(root), 0, 0));
    while let Some((id, kids, next, tallest)) = path.last_mut() {
        let Some(child) = kids.get(*next).cloned() else {
            let (id, tallest) = (*id, *tallest);
            height.insert(id, tallest + 1);
            path.pop();
            if let Some(parent) = path.last_mut() {
                parent.3 = parent.3.max(tallest + 1);
            }
            continue;
        };
        *next += 1;
        let Some(child_id) = identity(&child) else {
            continue;
        };
        if let Some(&h) = height.get(&child_id) {
            *tallest = (*tallest).max(h);
            if path.len() + h > MAX_DEPTH {
                return Err(too_deep());
            }
            continue;
        }
        if child_id == *id || path.iter().any(|frame| frame.0 == child_id) {
            return Err("a list, dict or tuple contains itself".into());
        }
        if path.len() >= MAX_DEPTH {
            return Err(too_deep());
        }
        let grandchildren = children(&child);
        path.push((child_id, grandchildren, 0, 0));
    }
    Ok(())
}

pub(super) fn too_deep() -> String {
    format!("values nest deeper than {MAX_DEPTH} levels (AsyncHow's nest 6)")
}

/// Frees `values` and everything they own one value at a time, never recursively.
pub(super) fn dismantle(values: impl IntoIterator<Item = Py>) {
    let mut work: Vec<Py> = values.into_iter().collect();
    while let Some(value) = work.pop() {
        match value {
            // Shared values (count above 1) are freed by their last holder.
            Py::List(items) if Rc::strong_count(&items) == 1 => {
                work.append(&mut items.borrow_mut());
            }
            Py::Dict(entries) if Rc::strong_count(&entries) == 1 => {
                for (k, v) in entries.borrow_mut().drain(..) {
                    work.extend([k, v]);
                }
            }
            Py::Tuple(mut items)
            | Py::Call {
                args: mut items, ..
            } => {
                if let Some(owned) = Rc::get_mut(&mut items) {
                    for item in owned.iter_mut() {
                        work.push(std::mem::replace(item, Py::Opaque("freed")));
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::unpickle::unpickle;
    use super::*;

    /// Protocol 2: `n` empty lists, each appended to the one below it.
    fn nested(n: usize) -> Vec<u8> {
        let mut bytes = vec![0x80, 2];
        bytes.extend(std::iter::repeat_n(b']', n));
        bytes.extend(std::iter::repeat_n(b'a', n - 1));
        bytes.push(b'.');
        bytes
    }

    #[test]
    fn deep_nesting_is_an_error_and_frees_without_recursion() {
        let err = unpickle(&nested(200_000)).unwrap_err();
        assert!(err.message.contains("deeper than 200"), "{err:?}");
        // Cut before STOP: the half-read stack is freed without recursion too.
        let mut cut = nested(200_000);
        cut.pop();
        assert!(unpickle(&cut).is_err());
        assert!(unpickle(&nested(MAX_DEPTH)).is_ok());
    }

    #[test]
    fn a_list_that_contains_itself_is_an_error() {
        // EMPTY_LIST, BINPUT 0, BINGET 0, APPEND, STOP
        let bytes = [0x80, 2, b']', b'q', 0, b'h', 0, b'a', b'.'];
        let err = unpickle(&bytes).unwrap_err();
        assert!(err.message.contains("contains itself"), "{err:?}");
    }

    /// The depth is checked as the lists are nested, at the append that makes level 201, not
    /// at `STOP` after the whole value (120 MB of this took 7.7 GB before).
    #[test]
    fn nesting_is_refused_at_the_append_that_makes_it_too_deep() {
        let n = 100_000;
        let err = unpickle(&nested(n)).unwrap_err();
        assert!(err.message.contains("deeper than 200"), "{err:?}");
        let first_append = 2 + n;
        assert_eq!(err.at, first_append + MAX_DEPTH - 1, "{err:?}");
        // MARK … LIST nests the same way.
        let mut marks = vec![0x80, 2];
        marks.extend(std::iter::repeat_n(b'(', n));
        marks.extend(std::iter::repeat_n(b'l', n));
        let err = unpickle(&marks).unwrap_err();
        assert_eq!(err.at, 2 + n + MAX_DEPTH, "{err:?}");
    }

    #[test]
    fn a_million_values_waiting_on_the_stack_are_refused() {
        let mut bytes = vec![0x80, 2];
        bytes.extend(std::iter::repeat_n(b']', 1_000_001));
        bytes.push(b'.');
        let err = unpickle(&bytes).unwrap_err();
        assert!(err.message.contains("more than 1000000 values"), "{err:?}");
    }
}

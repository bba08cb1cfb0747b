//! The binary transport ([RECORD.BIN.*]): the values of the member tables of `schema.rs` in
//! order, little-endian, read with bounds checks that report the first error at its byte
//! offset and never allocate more than the input's size.

use super::error::{RecordError, RecordErrorClass as C};
use super::schema::{min_bytes, Member, Ty, Val};

/// A bounds-checked reader over the record's bytes.
pub struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at offset 0.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    /// The current offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    pub fn left(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// The next `n` bytes, or `truncated` at the input's end.
    pub fn take(&mut self, n: usize, path: &str) -> Result<&'a [u8], RecordError> {
        if self.left() < n {
            return Err(RecordError::at_byte(
                C::Truncated,
                self.bytes.len(),
                path,
                format!(
                    "expected {n} bytes at offset {}, found {}",
                    self.pos,
                    self.left()
                ),
            ));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, path: &str) -> Result<[u8; N], RecordError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, path)?);
        Ok(a)
    }

    /// A `u8`.
    pub fn u8(&mut self, path: &str) -> Result<u8, RecordError> {
        Ok(self.array::<1>(path)?[0])
    }
    /// A little-endian `u16`.
    pub fn u16(&mut self, path: &str) -> Result<u16, RecordError> {
        Ok(u16::from_le_bytes(self.array(path)?))
    }
    /// A little-endian `u32`.
    pub fn u32(&mut self, path: &str) -> Result<u32, RecordError> {
        Ok(u32::from_le_bytes(self.array(path)?))
    }
    /// A little-endian `u64`.
    pub fn u64(&mut self, path: &str) -> Result<u64, RecordError> {
        Ok(u64::from_le_bytes(self.array(path)?))
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn flag(r: &mut Reader<'_>, path: &str) -> Result<bool, RecordError> {
    let at = r.pos();
    match r.u8(path)? {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(RecordError::at_byte(
            C::BadFlag,
            at,
            path,
            format!("expected 0 or 1, found {v}"),
        )),
    }
}

/// [RECORD.BIN.LAYOUT] [RECORD.BIN.READ] Reads one value of `ty`.
pub fn read(r: &mut Reader<'_>, ty: &Ty, path: &str) -> Result<Val, RecordError> {
    match ty {
        Ty::U8 => Ok(Val::U(r.u8(path)? as u64)),
        Ty::U32 => Ok(Val::U(r.u32(path)? as u64)),
        Ty::U64 | Ty::Fingerprint => Ok(Val::U(r.u64(path)?)),
        Ty::I32 => Ok(Val::I(r.u32(path)? as i32 as i64)),
        Ty::F64 => {
            let at = r.pos();
            let v = f64::from_bits(r.u64(path)?);
            if v.is_finite() {
                Ok(Val::F(v))
            } else {
                Err(RecordError::at_byte(
                    C::BadValue,
                    at,
                    path,
                    format!("expected a finite number, found {v}"),
                ))
            }
        }
        Ty::Bool => Ok(Val::B(flag(r, path)?)),
        Ty::Sha256 => Ok(Val::Sha(r.array(path)?)),
        Ty::Name(names) => {
            let at = r.pos();
            let v = r.u8(path)? as usize;
            if v < names.len() {
                Ok(Val::Name(v))
            } else {
                Err(RecordError::at_byte(
                    C::BadValue,
                    at,
                    path,
                    format!("expected a name position below {}, found {v}", names.len()),
                ))
            }
        }
        Ty::Opt(inner) => {
            if flag(r, path)? {
                Ok(Val::Opt(Some(Box::new(read(r, inner, path)?))))
            } else {
                Ok(Val::Opt(None))
            }
        }
        Ty::List(inner) => {
            let at = r.pos();
            let count = r.u32(path)? as usize;
            let most = r.left() / min_bytes(inner).max(1);
            if count > most {
                return Err(RecordError::at_byte(
                    C::TooLong,
                    at,
                    path,
                    format!(
                        "expected at most {most} items in the bytes left, found a count of {count}"
                    ),
                ));
            }
            let mut items = Vec::with_capacity(count);
            for i in 0..count {
                items.push(read(r, inner, &format!("{path}[{i}]"))?);
            }
            Ok(Val::List(items))
        }
        Ty::Coords(n) => (0..*n)
            .map(|i| Ok(Val::U(r.u32(&format!("{path}[{i}]"))? as u64)))
            .collect::<Result<_, _>>()
            .map(Val::List),
        Ty::Obj(members) => read_members(r, members, path).map(Val::Obj),
        Ty::OneOf(members) => {
            let at = r.pos();
            let tag = r.u8(path)? as usize;
            let Some(m) = members.get(tag) else {
                return Err(RecordError::at_byte(
                    C::BadValue,
                    at,
                    path,
                    format!("expected a tag below {}, found {tag}", members.len()),
                ));
            };
            let v = read(r, &m.ty, &join(path, m.name))?;
            Ok(Val::OneOf(tag, Box::new(v)))
        }
    }
}

/// Reads the members of an object in order.
pub fn read_members(
    r: &mut Reader<'_>,
    members: &[Member],
    path: &str,
) -> Result<Vec<Val>, RecordError> {
    members
        .iter()
        .map(|m| read(r, &m.ty, &join(path, m.name)))
        .collect()
}

/// [RECORD.BIN.LAYOUT] Appends `v` as `ty`.
pub fn write(out: &mut Vec<u8>, v: &Val, ty: &Ty) {
    match (ty, v) {
        (Ty::U8, Val::U(x)) | (Ty::Name(_), Val::U(x)) => out.push(*x as u8),
        (Ty::U32, Val::U(x)) => out.extend_from_slice(&(*x as u32).to_le_bytes()),
        (Ty::U64 | Ty::Fingerprint, Val::U(x)) => out.extend_from_slice(&x.to_le_bytes()),
        (Ty::I32, Val::I(x)) => out.extend_from_slice(&(*x as i32).to_le_bytes()),
        (Ty::F64, Val::F(x)) => out.extend_from_slice(&x.to_bits().to_le_bytes()),
        (Ty::Bool, Val::B(b)) => out.push(*b as u8),
        (Ty::Sha256, Val::Sha(a)) => out.extend_from_slice(a),
        (Ty::Name(_), Val::Name(i)) => out.push(*i as u8),
        (Ty::Opt(_), Val::Opt(None)) => out.push(0),
        (Ty::Opt(inner), Val::Opt(Some(x))) => {
            out.push(1);
            write(out, x, inner);
        }
        (Ty::List(inner), Val::List(items)) => {
            out.extend_from_slice(&(items.len() as u32).to_le_bytes());
            for item in items {
                write(out, item, inner);
            }
        }
        (Ty::Coords(_), Val::List(items)) => {
            for item in items {
                write(out, item, &Ty::U32);
            }
        }
        (Ty::Obj(members), Val::Obj(vals)) => write_members(out, members, vals),
        (Ty::OneOf(members), Val::OneOf(i, x)) => {
            out.push(*i as u8);
            write(out, x, &members[*i].ty);
        }
        // A value of another shape is never built by this crate's conversions.
        _ => {}
    }
}

/// Appends the members of an object in order.
pub fn write_members(out: &mut Vec<u8>, members: &[Member], vals: &[Val]) {
    for (m, v) in members.iter().zip(vals) {
        write(out, v, &m.ty);
    }
}

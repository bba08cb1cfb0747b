//! The `record_read` target ([RECORD.JSON.READ], [RECORD.BIN.READ]): any bytes, read as a JSON
//! record (when they are UTF-8) and as a binary record, must give a record or a typed error and
//! never panic; a record that reads writes back canonically through both transports
//! ([RECORD.JSON.WRITE], [RECORD.BIN.SAME]).

use super::Finding;
use crate::records::QueryRecord;

fn written_back(r: &QueryRecord, how: &str) -> Result<(), Finding> {
    let text = r.to_json();
    let bytes = r.to_binary();
    match (
        QueryRecord::from_json(&text),
        QueryRecord::from_binary(&bytes),
    ) {
        (Ok(a), Ok(b)) if a == *r && b == *r && a.to_json() == text && b.to_binary() == bytes => {
            Ok(())
        }
        (a, b) => Err(Finding::new(format!(
            "a record read from {how} does not write back: json {:?}, binary {:?}",
            a.map(|_| ()).map_err(|e| e.to_string()),
            b.map(|_| ()).map_err(|e| e.to_string())
        ))),
    }
}

/// The target: both readers on `data`; every record read is written back through both.
pub fn record_read(data: &[u8]) -> Result<(), Finding> {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(r) = QueryRecord::from_json(text) {
            written_back(&r, "JSON")?;
        }
    }
    if let Ok(r) = QueryRecord::from_binary(data) {
        written_back(&r, "binary")?;
        if r.to_binary() != data {
            return Err(Finding::new(
                "a binary record is not its own canonical form",
            ));
        }
    }
    Ok(())
}

/// Seeds: the golden records of `vectors/records/` in both transports.
pub fn record_seeds() -> Vec<(String, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors");
    let mut out = Vec::new();
    for v in crate::records::vectors::read_dir(&dir).unwrap_or_default() {
        out.push((format!("{}.json", v.id), v.case.golden.json.into_bytes()));
        if let Ok(b) = hex::decode(&v.case.golden.binary) {
            out.push((format!("{}.bin", v.id), b));
        }
    }
    out
}

"""``plunder export``: a results file's games as Parquet, for pandas, DuckDB, polars or Arrow users.

One Parquet row per stored game, with every column of the store: lists (seats, returns, scores)
as Parquet lists, mappings (parameters, statistics, agent options) as their canonical JSON text.
Only rows whose checksum holds and that are plausible are written (rows of other code or agent
options too: each says its code in ``version`` and its agents' options), by the same checks as the store's reuse, the game's own
included (:meth:`~plunder.lab.store.Store.verdict`); the others are counted in a warning that
names the check the first implausible one failed. The file is written
:data:`EXPORT_BATCH` rows at a time, so a store of any size is exported in bounded memory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from ..core.errors import ParameterError, quoted
from ..core.options import writable_file
from .store import CHECKED, Refusals, Store, warn_stderr

#: rows read, converted and written at a time
EXPORT_BATCH = 10_000
#: columns holding JSON lists, written as Parquet lists
LISTS = {"seats": "string", "returns": "float64", "scores": "float64"}


def schema() -> Any:
    """The Parquet file's columns, in the store's order (the checksum last)."""
    import pyarrow as pa
    kinds = {"base_seed": pa.int64(), "game_index": pa.int64(), "seed": pa.int64(),
             **{name: pa.list_(pa.string() if kind == "string" else pa.float64()) for name, kind in LISTS.items()}}
    return pa.schema([(name, kinds.get(name, pa.string())) for name in (*CHECKED, "checksum")])


def export(store_path: str | Path, out: str | Path, warn: Callable[[str], None] = warn_stderr) -> int:
    """Write the games of the results file ``store_path`` to the Parquet file ``out``; the rows written."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ParameterError("plunder export needs pyarrow: pip install pyarrow") from None
    source = Path(store_path)
    if not source.is_file():
        raise ParameterError(f"results file {quoted(str(source))} does not exist or is not a file")
    writable_file(out, "Parquet file")
    store = Store(source, command="", warn=warn)
    skipped = Refusals(("checksum", "implausible"))
    written = 0
    try:
        with pq.ParquetWriter(str(out), schema()) as writer:
            for chunk in store.scan(EXPORT_BATCH):
                kept = []
                for run, row in chunk:
                    wrong, words = store.verdict(run, row, made_here=False)
                    if wrong in skipped.counts:
                        skipped.add(wrong, words)
                    else:
                        kept.append(row)
                if kept:
                    columns = {name: [r[k] for r in kept] for k, name in enumerate((*CHECKED, "checksum"))}
                    for name in LISTS:
                        columns[name] = [json.loads(v) for v in columns[name]]
                    writer.write_table(pa.Table.from_pydict(columns, schema=schema()))
                    written += len(kept)
    finally:
        store.close()
    said = skipped.words()  # rows of other code are kept by an export: no "code" refusal to name it in
    if said:
        warn(f"results file {source}: rows left out of the export: {said}")
    return written

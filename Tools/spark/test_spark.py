"""`make test-spark`: TraceKit on Spark (local mode, two worker threads), checked byte for byte
against one `tracekit batch` over the same corpus.

Job 1 (corpus_job.py): the bundled corpus Traces/ replayed on PARTITIONS Spark tasks, each running
`tracekit batch Traces/ --shard I/PARTITIONS --jsonl --jobs 1`, the lines saved as part files and
reduced by `tracekit merge`. Compared with `tracekit batch Traces/ --jobs 1` (the table's first
line names the largest --jobs, so the one-machine run uses the tasks' one worker): the table
report, the --write-baseline file, the gate against Traces/baseline.json with --junit and
--markdown, and each exit status. A retried task (a partition's lines written twice) must not
change the merge; a lost one fails it.

Job 2 (pings_job.py): a Parquet table of pings (request id, role, time, latitude, longitude,
accuracy, speed, state) built by Spark from the bundled multi-phone trips, grouped by request,
each group streamed as CSV to `tracekit batch - --trip REQUEST.csv --index I --of N --corpus
requests/ --jsonl` inside a Spark task, the lines reduced by `tracekit merge`. Compared with
`tracekit batch requests/ --jobs 1` over the same requests' CSVs written on this machine: the
table, --write-baseline, --junit, --markdown, --html, a failing gate and each exit status; and
each streamed line with the folder batch's line for its CSV, but for where the trace was read.

Prints one line per check and closes with "N passed, N failed"; exit 1 when a check fails (a job
that raises is a failed check).
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus_job  # noqa: E402
import pings_job  # noqa: E402

results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)


def run(command, cwd):
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return done.returncode, done.stdout, done.stderr


def same(name, a, b, what_a, what_b):
    if a == b:
        check(name, True, f"{len(a)} bytes identical")
    else:
        a_lines, b_lines = a.decode(errors="replace").splitlines(), b.decode(errors="replace").splitlines()
        first = next((i for i, (x, y) in enumerate(zip(a_lines, b_lines)) if x != y), min(len(a_lines), len(b_lines)))
        x = a_lines[first] if first < len(a_lines) else "(end)"
        y = b_lines[first] if first < len(b_lines) else "(end)"
        check(name, False, f"line {first + 1} differs:\n  {what_a}: {x}\n  {what_b}: {y}")


def job1(sc, tracekit, root, work, args):
    """The bundled corpus, one shard per Spark task, merged; against one batch."""
    n = args.partitions
    started = time.monotonic()
    out = os.path.join(work, "job1")
    corpus_job.run_job(sc, tracekit, args.corpus, n, out, cwd=root)
    parts = sorted(glob.glob(os.path.join(out, "part-*")))
    lines = sum(1 for p in parts for line in open(p) if line.strip())
    print(f"job 1: {n} tasks of 'tracekit batch {args.corpus} --shard I/{n} --jsonl --jobs 1' wrote {lines} lines "
          f"in {len(parts)} part files, {time.monotonic() - started:.1f} s", flush=True)

    # The one-machine run and the merge: table and --write-baseline in one run each.
    batch_baseline, merge_baseline = os.path.join(work, "batch-baseline.json"), os.path.join(work, "merge-baseline.json")
    b_status, b_out, b_err = run([tracekit, "batch", args.corpus, "--jobs", "1", "--write-baseline", batch_baseline], root)
    m_status, m_out, m_err = run([tracekit, "merge", *parts, "--write-baseline", merge_baseline], root)
    if m_status not in (0, 1):
        print(m_err.decode(errors="replace"), file=sys.stderr)
    check(f"job 1: exit status of merge equals batch's", m_status == b_status, f"{m_status} and {b_status}")
    same(f"job 1: table of 'tracekit merge' ({n} Spark tasks) equals 'tracekit batch {args.corpus} --jobs 1'",
         m_out, b_out, "merge", "batch")
    if os.path.exists(merge_baseline) and os.path.exists(batch_baseline):
        same("job 1: --write-baseline of merge equals batch's", open(merge_baseline, "rb").read(),
             open(batch_baseline, "rb").read(), "merge", "batch")
    else:
        check("job 1: --write-baseline of merge equals batch's", False, "a baseline was not written")

    # The gate against the committed baseline.
    def reports(who):
        return ["--junit", os.path.join(work, f"{who}-gate.xml"), "--markdown", os.path.join(work, f"{who}-gate.md")]

    bg_status, bg_out, _ = run([tracekit, "batch", args.corpus, "--jobs", "1", "--baseline", args.baseline, *reports("batch")], root)
    mg_status, mg_out, _ = run([tracekit, "merge", *parts, "--baseline", args.baseline, *reports("merge")], root)
    check(f"job 1: gate against {args.baseline}: exit status of merge equals batch's", mg_status == bg_status,
          f"{mg_status} and {bg_status}")
    same(f"job 1: gate report against {args.baseline} of merge equals batch's", mg_out, bg_out, "merge", "batch")
    for ext, what in (("xml", "--junit"), ("md", "--markdown")):
        files = [os.path.join(work, f"{who}-gate.{ext}") for who in ("merge", "batch")]
        if all(os.path.exists(f) for f in files):
            same(f"job 1: the gate's {what} of merge equals batch's", *(open(f, "rb").read() for f in files), "merge", "batch")
        else:
            check(f"job 1: the gate's {what} of merge equals batch's", False, "not written: " + ", ".join(files))

    # A retried task: its partition's lines twice (another copy of the first part file).
    retried = os.path.join(work, "retried-part-00000")
    shutil.copyfile(parts[0], retried)
    r_status, r_out, _ = run([tracekit, "merge", *parts, retried], root)
    same("job 1: a retried task's lines (a part file twice) counted once, table", r_out, b_out, "merge", "batch")
    check("job 1: a retried task's lines counted once, exit status", r_status == b_status, f"{r_status} and {b_status}")

    # A lost task: its shard's trips are reported as not run and fail the merge (the check can fail).
    lost = sum(1 for line in open(parts[-1]) if line.strip())
    l_status, l_out, _ = run([tracekit, "merge", *parts[:-1]], root)
    check(f"job 1: a lost task's {lost} trips reported as not run, exit 1",
          l_status == 1 and f"Trips not run ({lost})".encode() in l_out, f"exit {l_status}")


def sourceless(line, names):
    """A trip line without where its trace was read: its `path`, and in its replay the strings that
    name the trace (`names`: a file's path; `<stdin>` and `-` for a stream), alone or ending a text
    ("the state column of -"). The rest must be equal."""

    def walk(x):
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        if isinstance(x, str):
            for name in names:
                if x == name or x.endswith(" of " + name):
                    return x[: len(x) - len(name)] + "TRACE"
        return x

    d = json.loads(line)
    d["path"] = None
    return walk(d)


def job2(spark, tracekit, root, work, partitions):
    """The pings table, built with Spark from the bundled multi-phone trips, grouped by request,
    each group streamed to `tracekit batch - --trip`, the lines merged; against one batch over the
    requests' CSVs made on this machine."""
    from pyspark.sql.types import DoubleType, StringType, StructField, StructType, TimestampType

    sidecars = sorted(glob.glob(os.path.join(root, "Traces/trips/*/*.scenario.json")))
    requests = {os.path.basename(os.path.dirname(p)): p for p in sidecars}
    schema = StructType([StructField("request_id", StringType(), False), StructField("role", StringType(), False),
                         StructField("time", TimestampType(), False), StructField("latitude", DoubleType(), False),
                         StructField("longitude", DoubleType(), False), StructField("accuracy", DoubleType(), True),
                         StructField("speed", DoubleType(), True), StructField("state", StringType(), True)])
    pings = spark.sparkContext.parallelize(sorted(requests.items()), partitions).flatMap(
        lambda kv: pings_job.trip_pings(tracekit, kv[1], kv[0]))
    table = os.path.join(work, "pings.parquet")
    frame = spark.createDataFrame(pings.map(lambda p: tuple(p[f.name] for f in schema.fields)), schema)
    frame.write.parquet(table)
    built = time.monotonic()
    print(f"job 2: table of {spark.read.parquet(table).count()} pings of {len(requests)} requests "
          f"({', '.join(sorted(requests))}) written as Parquet by Spark", flush=True)

    # The requests streamed on Spark: one 'tracekit batch - --trip' per group, the lines saved.
    # --html /dev/null: the lines carry each trip's picture, so the merged --html is compared too.
    corpus, out = "requests/", os.path.join(work, "job2", "lines")
    count = pings_job.run_job(spark, table, tracekit, corpus, partitions, out, extra=("--html", os.devnull))
    parts = sorted(glob.glob(os.path.join(out, "part-*")))
    lines = [line for p in parts for line in open(p, encoding="utf-8").read().split("\n") if line]
    streamed = time.monotonic()
    print(f"job 2: {count} requests grouped on {partitions} tasks, each streamed to 'tracekit batch - --trip REQUEST.csv "
          f"--index I --of {count} --corpus {corpus} --jsonl --jobs 1': {len(lines)} lines in {len(parts)} part files, "
          f"{streamed - built:.1f} s", flush=True)

    # The same requests' CSVs made on this machine from the trips, without Spark or Parquet, in a folder.
    ref_dir = os.path.join(work, "job2", "one-machine")
    os.makedirs(os.path.join(ref_dir, corpus))
    for request, sidecar in requests.items():
        with open(os.path.join(ref_dir, corpus, pings_job.trip_name(request)), "w") as f:
            f.write(pings_job.request_csv(list(pings_job.trip_pings(tracekit, sidecar, request))))

    def files(who, *kinds):
        return [os.path.join(work, "job2", f"{who}.{k}") for k in kinds]

    def reports(who):
        x, md, html = files(who, "xml", "md", "html")
        return ["--junit", x, "--markdown", md, "--html", html]

    batch_one = f"'tracekit batch {corpus} --jobs 1' over the {len(requests)} requests' CSVs"
    b_status, b_out, _ = run([tracekit, "batch", corpus, "--jobs", "1", "--write-baseline", *files("batch", "json"),
                              *reports("batch")], ref_dir)
    m_status, m_out, m_err = run([tracekit, "merge", *parts, "--write-baseline", *files("merge", "json"), *reports("merge")], root)
    if m_status not in (0, 1):
        print(m_err.decode(errors="replace"), file=sys.stderr)
    check(f"job 2: exit status of the merge of the streamed lines equals {batch_one}", m_status == b_status,
          f"{m_status} and {b_status}")
    same(f"job 2: table of 'tracekit merge' of the {count} streamed requests equals {batch_one}", m_out, b_out, "merge", "batch")
    for ext, what in (("json", "--write-baseline"), ("xml", "--junit"), ("md", "--markdown"), ("html", "--html")):
        compare_files(f"job 2: {what} of the merge equals batch's", files("merge", ext)[0], files("batch", ext)[0])

    # The gate, failing: against the baseline of a quieter policy (an En Route distance filter of 100 m), which sent
    # fewer updates: the same regressions, verdict and exit status 1 from both.
    quiet = os.path.join(work, "job2", "quiet.policy.json")
    with open(quiet, "w") as f:
        f.write('{"format": "tracekit-policy", "version": 2, "name": "quiet", "states": {"enRoute": {"distanceFilterMetres": 100}}}')
    run([tracekit, "batch", corpus, "--jobs", "1", "--policy", quiet, "--write-baseline", *files("quiet", "json")], ref_dir)
    gate = ["--baseline", *files("quiet", "json")]
    gb = run([tracekit, "batch", corpus, "--jobs", "1", *gate], ref_dir)
    gm = run([tracekit, "merge", *parts, *gate], root)
    check("job 2: gate against a quieter policy's baseline: exit status of merge equals batch's, 1",
          gm[0] == gb[0] == 1, f"{gm[0]} and {gb[0]}")
    same("job 2: that failing gate's report of merge equals batch's", gm[1], gb[1], "merge", "batch")

    # Each request's streamed line is the folder batch's line for its CSV, but for where the trace was read.
    f_status, f_out, _ = run([tracekit, "batch", corpus, "--jobs", "1", "--jsonl", "--html", os.devnull], ref_dir)
    by_index = {json.loads(line)["index"]: line for line in f_out.decode().split("\n") if line}
    for line in sorted(lines, key=lambda x: json.loads(x)["index"]):
        d = json.loads(line)
        mine = by_index.get(d["index"], "null")
        ok = sourceless(line, ["<stdin>", "-"]) == sourceless(mine, [os.path.join(corpus, d["trip"])])
        check(f"job 2: request {d['trip']}'s streamed line (index {d['index']}) equals the folder batch's line but for its "
              f"path and source names", ok, f"{len(line)} and {len(mine)} bytes")


def compare_files(name, a, b):
    if os.path.exists(a) and os.path.exists(b):
        same(name, open(a, "rb").read(), open(b, "rb").read(), a, b)
    else:
        check(name, False, "not written: " + ", ".join(f for f in (a, b) if not os.path.exists(f)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tracekit", default=".build/release/tracekit")
    parser.add_argument("--corpus", default="Traces/")
    parser.add_argument("--baseline", default="Traces/baseline.json")
    parser.add_argument("--partitions", type=int, default=3)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--work", default=".build/spark-test")
    args = parser.parse_args()
    root = os.getcwd()
    tracekit = os.path.abspath(args.tracekit)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    n = args.partitions

    started = time.monotonic()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the workers' Python: this one, the venv's
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(args.master)
        .appName("tracekit-test-spark")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    for module in ("corpus_job.py", "pings_job.py"):  # the executors' Python imports them (--py-files on a cluster)
        sc.addPyFile(os.path.join(HERE, module))
    up = time.monotonic()
    print(f"Spark {spark.version} on {args.master} up in {up - started:.1f} s", flush=True)

    # Each job's checks; a job that raises is one failed check, and the summary is still printed.
    timings = {}
    for name, job in (("job 1", lambda: job1(sc, tracekit, root, work, args)), ("job 2", lambda: job2(spark, tracekit, root, work, n))):
        t = time.monotonic()
        try:
            job()
        except Exception as e:  # noqa: BLE001: reported as a failed check, the trace on standard error
            traceback.print_exc()
            causes = [line for line in str(e).splitlines() if line.startswith(("FileNotFoundError", "RuntimeError", "OSError"))]
            check(f"{name} ran", False, f"{type(e).__name__}: {(causes or str(e).splitlines() or [''])[-1]}")
        timings[name] = time.monotonic() - t
    spark.stop()

    failed = results.count(False)
    print(f"wall time: {time.monotonic() - started:.1f} s (Spark start-up {up - started:.1f} s, "
          f"job 1 {timings['job 1']:.1f} s, job 2 {timings['job 2']:.1f} s)")
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

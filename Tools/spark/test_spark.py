"""`make test-spark`: TraceKit on Spark (local mode, two worker threads), checked byte for byte
against one `tracekit batch` over the same corpus.

Job 1 (corpus_job.py): the bundled corpus Traces/ replayed on PARTITIONS Spark tasks, each running
`tracekit batch Traces/ --shard I/PARTITIONS --jsonl --jobs 1`, the lines saved as part files and
reduced by `tracekit merge`. Compared with `tracekit batch Traces/ --jobs 1` (the table's first
line names the largest --jobs, so the one-machine run uses the tasks' one worker): the table
report, the --write-baseline file, the gate against Traces/baseline.json, and each exit status.
A retried task (a partition's lines written twice) must not change the merge; a lost one fails it.

Job 2 (pings_job.py): a Parquet table of pings (request id, role, time, latitude, longitude,
accuracy, speed, state) built by Spark from the bundled multi-phone trips, grouped by request:
(a) each group streamed to `tracekit replay -` as CSV, its JSON compared with the replay of the
same request's CSV made on this machine without Spark; (b) each group written as REQUEST.csv,
replayed one shard per task as in job 1 and merged, compared with one `tracekit batch` over the
CSVs made on this machine (table, --write-baseline, exit status).

Prints one line per check and closes with "N passed, N failed"; exit 1 when a check fails.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import time

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


def job2(spark, tracekit, root, work, partitions):
    """The pings table, built with Spark from the bundled multi-phone trips, then grouped by request."""
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
    print(f"job 2: table of {spark.read.parquet(table).count()} pings of {len(requests)} requests "
          f"({', '.join(sorted(requests))}) written as Parquet by Spark", flush=True)

    # The same requests' CSV made on this machine from the trips, without Spark or Parquet.
    reference = {r: pings_job.request_csv(list(pings_job.trip_pings(tracekit, p, r))) for r, p in requests.items()}

    # 2a: each request's group streamed to 'tracekit replay -'.
    replayed = pings_job.replay_requests(spark, table, tracekit, partitions)
    for request in sorted(requests):
        status, report = replayed.get(request, (None, ""))
        r_status, r_report = pings_job.replay_csv(tracekit, reference[request])
        same(f"job 2: request {request}'s group streamed to 'tracekit replay -' (exit {status}) equals its CSV's replay "
             f"(exit {r_status}), JSON", report.encode() + bytes([status or 0]), r_report.encode() + bytes([r_status]),
             "Spark", "one machine")

    # 2b: the groups written as a folder of REQUEST.csv, replayed as job 1, merged; compared with
    # one batch over the same CSVs written on this machine (the same folder name, so the same batch).
    spark_dir, ref_dir = os.path.join(work, "job2", "spark"), os.path.join(work, "job2", "one-machine")
    written = pings_job.write_requests(spark, table, os.path.join(spark_dir, "requests"), partitions)
    os.makedirs(os.path.join(ref_dir, "requests"))
    for request, text in reference.items():
        with open(os.path.join(ref_dir, "requests", f"{request}.csv"), "w") as f:
            f.write(text)
    out = os.path.join(work, "job2", "lines")
    corpus_job.run_job(spark.sparkContext, tracekit, "requests/", partitions, out, cwd=spark_dir)
    parts = sorted(glob.glob(os.path.join(out, "part-*")))
    m_status, m_out, _ = run([tracekit, "merge", *parts, "--write-baseline", os.path.join(work, "job2", "merge-baseline.json")], root)
    b_status, b_out, _ = run([tracekit, "batch", "requests/", "--jobs", "1", "--write-baseline",
                              os.path.join(work, "job2", "batch-baseline.json")], ref_dir)
    same(f"job 2: merge of {partitions} tasks over the {len(written)} requests' CSVs written by Spark (exit {m_status}) "
         f"equals one batch over them (exit {b_status}), table", m_out + bytes([m_status]), b_out + bytes([b_status]),
         "merge", "batch")
    same("job 2: --write-baseline of that merge equals batch's",
         open(os.path.join(work, "job2", "merge-baseline.json"), "rb").read(),
         open(os.path.join(work, "job2", "batch-baseline.json"), "rb").read(), "merge", "batch")


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

    # Job 1: the corpus, one shard per partition.
    out = os.path.join(work, "job1")
    corpus_job.run_job(sc, tracekit, args.corpus, n, out, cwd=root)
    parts = sorted(glob.glob(os.path.join(out, "part-*")))
    lines = sum(1 for p in parts for line in open(p) if line.strip())
    job1 = time.monotonic()
    print(f"job 1: {n} tasks of 'tracekit batch {args.corpus} --shard I/{n} --jsonl --jobs 1' wrote {lines} lines "
          f"in {len(parts)} part files, {job1 - up:.1f} s", flush=True)

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

    job2_started = time.monotonic()
    job2(spark, tracekit, root, work, args.partitions)
    spark.stop()

    failed = results.count(False)
    print(f"wall time: {time.monotonic() - started:.1f} s (Spark start-up {up - started:.1f} s, job 1 {job1 - up:.1f} s, "
          f"job 2 {time.monotonic() - job2_started:.1f} s)")
    print(f"spark: {len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

"""The Spark local run against `tracekit batch --jobs 2` on one corpus (Benchmarks/README.md,
"Spark, local mode"). Prints Spark's start-up, each job's wall time by partition count, batch's,
and the merge's time and peak memory. Not part of `make test-spark`.

    .build/spark-venv/bin/python Tools/spark/bench_spark.py --corpus /tmp/corpus/ --partitions 2 4 16

With --pings COPIES, job 2 instead: a Parquet table of the bundled multi-phone trips' pings, each
trip COPIES times under another request id, each request streamed to `tracekit batch - --trip`
(pings_job.py), against the same requests written as CSV files and replayed by one `tracekit
batch --jobs 2`; and the merge of the streamed lines.
"""

import argparse
import glob
import os
import resource
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_job  # noqa: E402
import pings_job  # noqa: E402


def timed(command, cwd=None):
    """Wall seconds and the child's peak RSS in MB (GNU time)."""
    started = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", *command], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    return time.monotonic() - started, int(done.stderr.strip().splitlines()[-1]) / 1024, done.returncode


def spark_walls(runs, out, job):
    """The wall seconds of `runs` runs of a Spark job writing its part files to `out` (emptied first)."""
    walls = []
    for _ in range(runs):
        shutil.rmtree(out, ignore_errors=True)
        t = time.monotonic()
        job()
        walls.append(time.monotonic() - t)
    return walls


def batch_and_merge(tracekit, corpus, parts, count, runs, cwd=None):
    """Prints `tracekit batch CORPUS --jobs 2`'s wall time, and the merge's of the part files."""
    walls = [timed([tracekit, "batch", corpus, "--jobs", "2"], cwd)[0] for _ in range(runs)]
    print(f"tracekit batch {corpus} --jobs 2: wall {' '.join(f'{w:.2f}' for w in walls)} s (best {min(walls):.2f} s, "
          f"{count / min(walls):.0f} trips/s)")
    merges = [timed([tracekit, "merge", *parts]) for _ in range(runs)]
    best = min(m[0] for m in merges)
    size = sum(os.path.getsize(p) for p in parts) / 1e6
    print(f"tracekit merge of {count} lines ({size:.1f} MB): wall {' '.join(f'{m[0]:.2f}' for m in merges)} s "
          f"({count / best:.0f} lines/s), peak RSS {max(m[1] for m in merges):.1f} MB")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tracekit", default=".build/release/tracekit")
    parser.add_argument("--corpus", help="job 1: the corpus (a folder or manifest)")
    parser.add_argument("--partitions", type=int, nargs="+", default=[2, 4, 16])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=".build/spark-bench")
    parser.add_argument("--pings", type=int, default=0, help="job 2: each bundled trip this many times as requests")
    args = parser.parse_args()
    if not args.corpus and not args.pings:
        parser.error("give --corpus (job 1) or --pings (job 2)")
    tracekit = os.path.abspath(args.tracekit)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    started = time.monotonic()
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false") \
        .config("spark.ui.showConsoleProgress", "false").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    spark.sparkContext.addPyFile(corpus_job.__file__)
    spark.sparkContext.addPyFile(pings_job.__file__)
    spark.sparkContext.parallelize(range(2), 2).count()  # the first job also starts the Python workers
    print(f"Spark start-up (session and a first 2-task job): {time.monotonic() - started:.1f} s")
    if args.pings:
        return bench_pings(spark, tracekit, args)
    trips = None
    for n in args.partitions:
        out = os.path.join(args.work, f"p{n}")
        walls = spark_walls(args.runs, out, lambda: corpus_job.run_job(spark.sparkContext, tracekit, args.corpus, n, out))
        parts = sorted(glob.glob(os.path.join(out, "part-*")))
        trips = sum(1 for p in parts for line in open(p) if line.strip())
        print(f"Spark local[2], {n} tasks: {trips} trips, wall {' '.join(f'{w:.2f}' for w in walls)} s "
              f"(best {min(walls):.2f} s, {trips / min(walls):.0f} trips/s)")
    spark.stop()
    batch_and_merge(tracekit, args.corpus, parts, trips, args.runs)


def bench_pings(spark, tracekit, args):
    """Job 2 on COPIES × 3 requests: streamed on Spark, against the CSVs batched on one machine."""
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    folder = os.path.join(args.work, "requests")
    os.makedirs(folder)
    rows = []
    for sidecar in sorted(glob.glob("Traces/trips/*/*.scenario.json")):
        trip = os.path.basename(os.path.dirname(sidecar))
        pings = list(pings_job.trip_pings(tracekit, sidecar, trip))
        text = pings_job.request_csv(pings)
        for k in range(args.pings):
            request = f"{trip}-{k:05d}"
            rows += [dict(p, request_id=request) for p in pings]
            with open(os.path.join(folder, pings_job.trip_name(request)), "w") as f:
                f.write(text)
    columns = ["request_id", "role", "time", "latitude", "longitude", "accuracy", "speed", "state"]
    table = os.path.join(args.work, "pings.parquet")
    spark.createDataFrame([tuple(r[c] for c in columns) for r in rows], columns).write.parquet(table)
    requests = len(os.listdir(folder))
    print(f"table: {len(rows)} pings of {requests} requests")
    for n in args.partitions:
        out = os.path.join(args.work, f"lines-{n}")
        walls = spark_walls(args.runs, out, lambda: pings_job.run_job(spark, table, tracekit, "requests/", n, out))
        print(f"Spark local[2], {n} tasks, each request streamed: wall {' '.join(f'{w:.2f}' for w in walls)} s "
              f"(best {min(walls):.2f} s, {requests / min(walls):.0f} requests/s)")
    spark.stop()
    batch_and_merge(tracekit, "requests/", sorted(glob.glob(os.path.join(out, "part-*"))), requests, args.runs, cwd=args.work)


if __name__ == "__main__":
    main()

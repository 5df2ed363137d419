"""The Spark local run against `tracekit batch --jobs 2` on one corpus (Benchmarks/README.md,
"Spark, local mode"). Prints Spark's start-up, each job's wall time by partition count, batch's,
and the merge's time and peak memory. Not part of `make test-spark`.

    .build/spark-venv/bin/python Tools/spark/bench_spark.py --corpus /tmp/corpus/ --partitions 2 4 16
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


def timed(command):
    """Wall seconds and the child's peak RSS in MB (GNU time)."""
    started = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return time.monotonic() - started, int(done.stderr.strip().splitlines()[-1]) / 1024, done.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tracekit", default=".build/release/tracekit")
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--partitions", type=int, nargs="+", default=[2, 4, 16])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=".build/spark-bench")
    args = parser.parse_args()
    tracekit = os.path.abspath(args.tracekit)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    started = time.monotonic()
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false") \
        .config("spark.ui.showConsoleProgress", "false").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    spark.sparkContext.addPyFile(corpus_job.__file__)
    spark.sparkContext.parallelize(range(2), 2).count()  # the first job also starts the Python workers
    print(f"Spark start-up (session and a first 2-task job): {time.monotonic() - started:.1f} s")
    trips = None
    for n in args.partitions:
        walls = []
        for _ in range(args.runs):
            out = os.path.join(args.work, f"p{n}")
            shutil.rmtree(out, ignore_errors=True)
            t = time.monotonic()
            corpus_job.run_job(spark.sparkContext, tracekit, args.corpus, n, out)
            walls.append(time.monotonic() - t)
        parts = sorted(glob.glob(os.path.join(out, "part-*")))
        trips = sum(1 for p in parts for line in open(p) if line.strip())
        print(f"Spark local[2], {n} tasks: {trips} trips, wall {' '.join(f'{w:.2f}' for w in walls)} s "
              f"(best {min(walls):.2f} s, {trips / min(walls):.0f} trips/s)")
    spark.stop()
    walls = [timed([tracekit, "batch", args.corpus, "--jobs", "2"])[0] for _ in range(args.runs)]
    print(f"tracekit batch --jobs 2: wall {' '.join(f'{w:.2f}' for w in walls)} s (best {min(walls):.2f} s, "
          f"{trips / min(walls):.0f} trips/s)")
    merges = [timed([tracekit, "merge", *parts]) for _ in range(args.runs)]
    best = min(m[0] for m in merges)
    size = sum(os.path.getsize(p) for p in parts) / 1e6
    print(f"tracekit merge of {trips} lines ({size:.1f} MB): wall {' '.join(f'{m[0]:.2f}' for m in merges)} s "
          f"({trips / best:.0f} lines/s), peak RSS {max(m[1] for m in merges):.1f} MB")


if __name__ == "__main__":
    main()

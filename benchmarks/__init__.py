"""SBA throughput benchmarks: the engine beside a naive esper baseline of the same rules.

``python -m benchmarks.report`` measures everything and prints the table; the
``bench_*.py`` files are the same measurements as pytest-benchmark suites.
"""

"""stats.py - the confidence intervals of tests/bench/cost and tests/bench/probes."""
import math
import statistics

# t quantiles (two-sided 95%) by degrees of freedom
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
       10: 2.23, 11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12, 17: 2.11,
       18: 2.10, 19: 2.09, 20: 2.09, 25: 2.06, 30: 2.04}


def t95(df: int) -> float:
    """Student's t for a two-sided 95% interval (the next lower tabulated df)."""
    return T95.get(df) or T95[max(k for k in T95 if k <= df)] if df >= 1 else math.inf


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval."""
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return m, math.inf
    return m, t95(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))

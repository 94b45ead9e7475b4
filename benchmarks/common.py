"""What the benchmark scripts share: peak memory of the process and the fitted exponent of time against size."""
import resource


def peak_MB():
    """Peak resident set size of this process (MB; ru_maxrss is in kB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fit_exponent(points):
    """Least-squares slope b of log(time) on log(P) (time ~ P^b) for (P, time) pairs, or None with fewer than two."""
    import numpy as np

    pts = [(p, t) for p, t in points if t and t > 0]
    if len(pts) < 2:
        return None
    x, y = np.log([p for p, _ in pts]), np.log([t for _, t in pts])
    return float(np.polyfit(x, y, 1)[0])

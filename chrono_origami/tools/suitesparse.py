"""SuiteSparseQR's C interface through ctypes: the library that pyspqr ships, loaded and checked once.

Lower than :mod:`.sparseqr` (the QR and what follows from it) and :mod:`.memory` (whose guard lets the libraries
allocate their buffers before it limits the address space): both use it, neither is used by it.
"""
import contextlib
import ctypes
import glob
import os
import sys

import numpy as np
import scipy.sparse as sp

#: Fill-reducing column ordering of the QR: METIS's nested dissection. On the 10,000-panel Miura-ori operator
#: it factors in 1.5 s (R: 6.8 M entries) where AMD takes 2.2 s (9.1 M), and its cost grows as P^1.29 from
#: 1,000 to 10,000 panels against AMD's P^1.57; below 1,000 panels the two are within 0.02 s.
ORDERING = "METIS"
#: SuiteSparseQR's column orderings by name
_ORDERINGS = {"FIXED": 0, "NATURAL": 1, "COLAMD": 2, "CHOLMOD": 4, "AMD": 5, "METIS": 6, "DEFAULT": 7}


def _c_fflush():
    """Flush the C library's stdio buffers (CHOLMOD prints with printf)."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):
        pass


@contextlib.contextmanager
def _quiet_stdout():
    """Silence the C-level stdout (file descriptor 1) for the duration, its stdio buffer included."""
    try:
        sys.stdout.flush()
    except (AttributeError, OSError, ValueError):
        pass
    _c_fflush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            try:
                yield
            finally:
                _c_fflush()
                os.dup2(saved, 1)
    finally:
        os.close(saved)


# ------------------------------------------------------------------ SuiteSparseQR's C interface (ctypes)
_c_int, _c_double, _c_size_t, _c_void_p = ctypes.c_int, ctypes.c_double, ctypes.c_size_t, ctypes.c_void_p
_c_int32, _c_int64, _P = ctypes.c_int32, ctypes.c_int64, ctypes.POINTER


class _CholmodSparse(ctypes.Structure):
    """``cholmod_sparse`` (CHOLMOD 1 to 5: unchanged)."""

    _fields_ = [("nrow", _c_size_t), ("ncol", _c_size_t), ("nzmax", _c_size_t), ("p", _c_void_p),
                ("i", _c_void_p), ("nz", _c_void_p), ("x", _c_void_p), ("z", _c_void_p), ("stype", _c_int),
                ("itype", _c_int), ("xtype", _c_int), ("dtype", _c_int), ("sorted", _c_int), ("packed", _c_int)]


class _CholmodDense(ctypes.Structure):
    """``cholmod_dense`` (CHOLMOD 5)."""

    _fields_ = [("nrow", _c_size_t), ("ncol", _c_size_t), ("nzmax", _c_size_t), ("d", _c_size_t), ("x", _c_void_p),
                ("z", _c_void_p), ("xtype", _c_int), ("dtype", _c_int)]


class _CholmodFactorHead(ctypes.Structure):
    """The first fields of ``cholmod_factor``: its order and the column where a factorisation stopped."""

    _fields_ = [("n", _c_size_t), ("minor", _c_size_t)]


class _CholmodMethod(ctypes.Structure):
    _fields_ = [("lnz", _c_double), ("fl", _c_double), ("prune_dense", _c_double), ("prune_dense2", _c_double),
                ("nd_oksep", _c_double), ("other_1", _c_double * 4), ("nd_small", _c_size_t),
                ("other_2", _c_double * 4), ("aggressive", _c_int), ("order_for_lu", _c_int),
                ("nd_compress", _c_int), ("nd_camd", _c_int), ("nd_components", _c_int), ("ordering", _c_int),
                ("other_3", _c_size_t * 4)]


class _CholmodCommon(ctypes.Structure):
    """The leading part of ``cholmod_common`` (CHOLMOD 4 and 5), up to SuiteSparseQR's statistics."""

    _fields_ = [("dbound", _c_double), ("grow0", _c_double), ("grow1", _c_double), ("grow2", _c_size_t),
                ("maxrank", _c_size_t), ("supernodal_switch", _c_double), ("supernodal", _c_int),
                ("final_asis", _c_int), ("final_super", _c_int), ("final_ll", _c_int), ("final_pack", _c_int),
                ("final_monotonic", _c_int), ("final_resymbol", _c_int), ("zrelax", _c_double * 3),
                ("nrelax", _c_size_t * 3), ("prefer_zomplex", _c_int), ("prefer_upper", _c_int),
                ("quick_return_if_not_posdef", _c_int), ("prefer_binary", _c_int), ("print", _c_int),
                ("precise", _c_int), ("try_catch", _c_int), ("error_handler", _c_void_p), ("nmethods", _c_int),
                ("current", _c_int), ("selected", _c_int), ("method", _CholmodMethod * 10),
                ("postorder", _c_int), ("default_nesdis", _c_int), ("metis_memory", _c_double),
                ("metis_dswitch", _c_double), ("metis_nswitch", _c_size_t), ("nrow", _c_size_t),
                ("mark", _c_int64), ("iworksize", _c_size_t), ("xworkbytes", _c_size_t), ("Flag", _c_void_p),
                ("Head", _c_void_p), ("Xwork", _c_void_p), ("Iwork", _c_void_p), ("itype", _c_int),
                ("other_5", _c_int), ("no_workspace_reallocate", _c_int), ("status", _c_int), ("fl", _c_double),
                ("lnz", _c_double), ("anz", _c_double), ("modfl", _c_double), ("malloc_count", _c_size_t),
                ("memory_usage", _c_size_t), ("memory_inuse", _c_size_t), ("nrealloc_col", _c_double),
                ("nrealloc_factor", _c_double), ("ndbounds_hit", _c_double), ("rowfacfl", _c_double),
                ("aatfl", _c_double), ("called_nd", _c_int), ("blas_ok", _c_int), ("SPQR_grain", _c_double),
                ("SPQR_small", _c_double), ("SPQR_shrink", _c_int), ("SPQR_nthreads", _c_int),
                ("SPQR_flopcount", _c_double), ("SPQR_analyze_time", _c_double),
                ("SPQR_factorize_time", _c_double), ("SPQR_solve_time", _c_double),
                ("SPQR_flopcount_bound", _c_double), ("SPQR_tol_used", _c_double), ("SPQR_norm_E_fro", _c_double),
                ("SPQR_istat", _c_int64 * 8)]


_COMMON_BYTES = 1 << 16     # more than sizeof(cholmod_common) in any CHOLMOD (about 2.6 kB in version 5)


class SuiteSparse:
    """SuiteSparseQR's C interface: Q-less QR (``SuiteSparseQR_i_C``) and symbolic analysis, with statistics.

    ``spqr`` and ``cholmod``: the ctypes libraries. :meth:`qr` returns
    (rank estimate, R CSC (e x n), column permutation, statistics dict);
    ``tol`` < 0 switches SuiteSparseQR's own rank detection off (Heath's
    column-norm test: not used for rank decisions here, see the module doc).
    """

    def __init__(self, spqr, cholmod):
        self.spqr, self.cholmod = spqr, cholmod
        S = _P(_CholmodSparse)
        spqr.SuiteSparseQR_i_C.restype = _c_int32
        spqr.SuiteSparseQR_i_C.argtypes = [_c_int, _c_double, _c_int32, _c_int, S, _c_void_p, _c_void_p,
                                           _c_void_p, _c_void_p, _P(S), _P(_P(_c_int32)), _c_void_p, _c_void_p,
                                           _c_void_p, _c_void_p]
        spqr.SuiteSparseQR_C_symbolic.restype = _c_void_p
        spqr.SuiteSparseQR_C_symbolic.argtypes = [_c_int, _c_int, S, _c_void_p]
        spqr.SuiteSparseQR_C_free.restype = _c_int
        spqr.SuiteSparseQR_C_free.argtypes = [_P(_c_void_p), _c_void_p]
        cholmod.cholmod_start.argtypes = [_c_void_p]
        cholmod.cholmod_finish.argtypes = [_c_void_p]
        cholmod.cholmod_free_sparse.argtypes = [_P(S), _c_void_p]
        cholmod.cholmod_free.restype = _c_void_p
        cholmod.cholmod_free.argtypes = [_c_size_t, _c_size_t, _c_void_p, _c_void_p]
        cholmod.cholmod_analyze.restype = _c_void_p
        cholmod.cholmod_analyze.argtypes = [S, _c_void_p]
        cholmod.cholmod_copy_factor.restype = _c_void_p
        cholmod.cholmod_copy_factor.argtypes = [_c_void_p, _c_void_p]
        cholmod.cholmod_factorize_p.restype = _c_int
        cholmod.cholmod_factorize_p.argtypes = [S, _P(_c_double), _c_void_p, _c_size_t, _c_void_p, _c_void_p]
        cholmod.cholmod_solve.restype = _P(_CholmodDense)
        cholmod.cholmod_solve.argtypes = [_c_int, _c_void_p, _P(_CholmodDense), _c_void_p]
        cholmod.cholmod_free_dense.argtypes = [_P(_P(_CholmodDense)), _c_void_p]
        cholmod.cholmod_free_factor.argtypes = [_P(_c_void_p), _c_void_p]
        cholmod.cholmod_metis.restype = _c_int
        cholmod.cholmod_metis.argtypes = [S, _c_void_p, _c_size_t, _c_int, _c_void_p, _c_void_p]

    @contextlib.contextmanager
    def _common(self):
        buf = ctypes.create_string_buffer(_COMMON_BYTES)
        self.cholmod.cholmod_start(buf)
        try:
            cc = _CholmodCommon.from_buffer(buf)
            if (cc.grow0, cc.grow1, cc.grow2, cc.maxrank, cc.supernodal_switch, cc.SPQR_grain, cc.SPQR_small,
                    cc.SPQR_shrink) != (1.2, 1.2, 5, 8, 40.0, 1.0, 1e6, 1):
                raise OSError("cholmod_common has an unknown layout")
            yield buf, cc
        finally:
            self.cholmod.cholmod_finish(buf)

    @staticmethod
    def _wrap(B):
        B = sp.csc_matrix(B, dtype=float)
        B.sort_indices()
        if B.nnz >= 2 ** 31:
            raise OSError("more than 2^31 entries")
        arrays = (np.ascontiguousarray(B.indptr, np.int32), np.ascontiguousarray(B.indices, np.int32),
                  np.ascontiguousarray(B.data, float))
        cs = _CholmodSparse(B.shape[0], B.shape[1], max(B.nnz, 1), arrays[0].ctypes.data, arrays[1].ctypes.data,
                            None, arrays[2].ctypes.data, None, 0, 0, 1, 0, 1, 1)
        return cs, arrays

    def qr(self, B, tol=-1.0, ordering=ORDERING):
        m, n = B.shape
        cs, keep = self._wrap(B)
        with self._common() as (buf, cc), _quiet_stdout():
            R, E = _P(_CholmodSparse)(), _P(_c_int32)()
            rank = self.spqr.SuiteSparseQR_i_C(_ORDERINGS[ordering], float(tol), 0, 0, ctypes.byref(cs), None, None,
                                               None, None, ctypes.byref(R), ctypes.byref(E), None, None, None, buf)
            stats = dict(peak_bytes=int(cc.memory_usage), nnz_R=int(cc.SPQR_istat[0]),
                         flops=float(cc.SPQR_flopcount))
            if rank < 0 or not R:
                raise MemoryError(f"SuiteSparseQR stopped (status {cc.status})")
            try:
                r = R.contents
                ip = ctypes.cast(r.p, _P(_c_int32))
                indptr = np.ctypeslib.as_array(ip, (r.ncol + 1,)).copy()
                nz = int(indptr[-1])
                if nz:
                    indices = np.ctypeslib.as_array(ctypes.cast(r.i, _P(_c_int32)), (nz,)).copy()
                    data = np.ctypeslib.as_array(ctypes.cast(r.x, _P(_c_double)), (nz,)).copy()
                else:
                    indices, data = np.zeros(0, np.int32), np.zeros(0)
                perm = np.ctypeslib.as_array(E, (n,)).astype(np.intp) if E else np.arange(n)
                Rm = sp.csc_matrix((data, indices, indptr), shape=(r.nrow, r.ncol))
            finally:
                self.cholmod.cholmod_free_sparse(ctypes.byref(R), buf)
                if E:
                    self.cholmod.cholmod_free(n, ctypes.sizeof(_c_int32), E, buf)
        return int(rank), Rm, perm, stats

    def metis(self, B, groups=None):
        """METIS's nested-dissection column order of B (p x q), postordered: the order SuiteSparseQR's
        :data:`ORDERING` gives B (its ``cholmod_metis`` on B^T, when B has no singleton columns), so that B[:, order]
        factored with ordering "FIXED" is the same factor; its separators come last (the root's last of all).

        ``groups``: a label per column (e.g. the body of each of a structure's 6 velocity columns): METIS orders the
        graph of the groups (B's columns of a group summed, in pattern), and each group's columns follow in their
        own order. On the 10^4-panel Miura patch, 0.03 s against 0.43 s, and a factor of 5.7e9 flops against 6.1e9.
        """
        B = sp.csc_matrix(B)
        q = B.shape[1]
        if groups is not None:
            groups = np.asarray(groups)
            labels, groups = np.unique(groups, return_inverse=True)
            groups = groups.ravel()
            g = len(labels)
            # the pattern's sum: |B|, so that entries of one row that cancel over a group keep its edge
            Bg = sp.csc_matrix(abs(sp.csc_matrix(B)) @ sp.csc_matrix((np.ones(q), (np.arange(q), groups)),
                                                                       shape=(q, g)))
            rank_of = np.empty(g, np.intp)
            rank_of[self.metis(Bg)] = np.arange(g)
            return np.lexsort((np.arange(q), rank_of[groups]))
        cs, keep = self._wrap(B.T)
        order = np.zeros(q, np.int32)
        with self._common() as (buf, cc), _quiet_stdout():
            if not self.cholmod.cholmod_metis(ctypes.byref(cs), None, 0, 1, order.ctypes.data, buf):
                raise MemoryError(f"METIS's ordering stopped (status {cc.status})")
        return order.astype(np.intp)

    def symbolic(self, B, ordering=ORDERING):
        """SuiteSparseQR's symbolic analysis of B: dict(nnz_R, nnz_H, flops) (upper bounds)."""
        cs, keep = self._wrap(B)
        with self._common() as (buf, cc), _quiet_stdout():
            f = self.spqr.SuiteSparseQR_C_symbolic(_ORDERINGS[ordering], 0, ctypes.byref(cs), buf)
            if not f:
                raise MemoryError(f"SuiteSparseQR's analysis stopped (status {cc.status})")
            out = dict(nnz_R=int(cc.SPQR_istat[0]), nnz_H=int(cc.SPQR_istat[1]),
                       flops=float(cc.SPQR_flopcount_bound))
            fp = _c_void_p(f)
            self.spqr.SuiteSparseQR_C_free(ctypes.byref(fp), buf)
        return out


class NormalAnalysis:
    """CHOLMOD's ordering and symbolic analysis of the normal matrix A^T A of an m x n sparse A, made once for its
    sparsity pattern (``pattern``: A's CSR indptr and indices) and reused by every numeric factorisation with that
    pattern (:class:`NormalCholesky`). ``lib``: a :class:`SuiteSparse`. Raises OSError where CHOLMOD refuses."""

    def __init__(self, lib, A):
        A = sp.csr_matrix(A, dtype=float)
        A.sort_indices()
        self.lib, self.shape = lib, A.shape
        self.indptr = np.ascontiguousarray(A.indptr, np.int32)
        self.indices = np.ascontiguousarray(A.indices, np.int32)
        self._buf = ctypes.create_string_buffer(_COMMON_BYTES)
        lib.cholmod.cholmod_start(self._buf)
        self._started = True
        cs, keep = self._wrap(A.data)
        with _quiet_stdout():
            self._symbolic = lib.cholmod.cholmod_analyze(ctypes.byref(cs), self._buf)
        cc = _CholmodCommon.from_buffer(self._buf)
        if not self._symbolic:
            raise OSError(f"CHOLMOD's analysis stopped (status {cc.status})")
        self.lnz = float(cc.lnz)       # entries of the factor L (8 bytes each in its numeric factorisation, and more)

    def matches(self, A):
        """Whether the CSR matrix A has this analysis' shape and pattern."""
        return (A.shape == self.shape and len(A.indices) == len(self.indices)
                and np.array_equal(A.indptr, self.indptr) and np.array_equal(A.indices, self.indices))

    def _wrap(self, data):
        """A^T as a ``cholmod_sparse`` (n x m, unsymmetric: CHOLMOD then factors A^T (A^T)^T = A^T A): A's CSR
        arrays are A^T's CSC arrays."""
        data = np.ascontiguousarray(data, float)
        m, n = self.shape
        cs = _CholmodSparse(n, m, max(len(data), 1), self.indptr.ctypes.data, self.indices.ctypes.data, None,
                            data.ctypes.data, None, 0, 0, 1, 0, 1, 1)
        return cs, data

    def factorize(self, data, beta):
        """The factor L L^T = P (A^T A + beta I) P^T of A with these CSR ``data`` (:class:`NormalCholesky`); None
        where A^T A + beta I is not positive definite in floating point."""
        cs, keep = self._wrap(data)
        L = _c_void_p(self.lib.cholmod.cholmod_copy_factor(self._symbolic, self._buf))
        if not L:
            raise MemoryError("CHOLMOD could not copy its analysis")
        b = (_c_double * 2)(float(beta), 0.0)
        with _quiet_stdout():
            self.lib.cholmod.cholmod_factorize_p(ctypes.byref(cs), b, None, 0, L, self._buf)
        status = _CholmodCommon.from_buffer(self._buf).status
        head = _CholmodFactorHead.from_address(L.value)
        if status < 0 or head.minor < head.n:
            self.lib.cholmod.cholmod_free_factor(ctypes.byref(L), self._buf)
            if status in (-2, -3):             # CHOLMOD_OUT_OF_MEMORY, CHOLMOD_TOO_LARGE
                raise MemoryError("CHOLMOD ran out of memory factoring the normal equations")
            return None
        return NormalCholesky(self, L)

    def __del__(self):
        if getattr(self, "_started", False):
            if getattr(self, "_symbolic", None):
                L = _c_void_p(self._symbolic)
                self.lib.cholmod.cholmod_free_factor(ctypes.byref(L), self._buf)
            self.lib.cholmod.cholmod_finish(self._buf)
            self._started = False


class NormalCholesky:
    """A numeric CHOLMOD factor of A^T A + beta I (:meth:`NormalAnalysis.factorize`): :meth:`solve`."""

    def __init__(self, analysis, L):
        self.analysis, self._L = analysis, L
        self.n = analysis.shape[1]

    def solve(self, b):
        """x with (A^T A + beta I) x = b (b: n or n x k)."""
        b = np.asarray(b, float)
        B = np.asfortranarray(b.reshape(self.n, -1))
        k = B.shape[1]
        d = _CholmodDense(self.n, k, self.n * k, self.n, B.ctypes.data, None, 1, 0)
        lib = self.analysis.lib.cholmod
        X = lib.cholmod_solve(0, self._L, ctypes.byref(d), self.analysis._buf)
        if not X:
            raise MemoryError("CHOLMOD's solve stopped")
        try:
            x = np.ctypeslib.as_array(ctypes.cast(X.contents.x, _P(_c_double)), (k * self.n,)).copy()
        finally:
            lib.cholmod_free_dense(ctypes.byref(X), self.analysis._buf)
        x = x.reshape(k, self.n).T
        return x[:, 0] if b.ndim == 1 else x

    def __del__(self):
        if getattr(self, "_L", None):
            self.analysis.lib.cholmod.cholmod_free_factor(ctypes.byref(self._L), self.analysis._buf)
            self._L = None


_SUITESPARSE = []


def _library_paths(name):
    """Where pyspqr's bundled SuiteSparse library ``name`` (spqr, cholmod) may be."""
    import pyspqr

    here = os.path.dirname(os.path.abspath(pyspqr.__file__))
    patterns = [os.path.join(os.path.dirname(here), "pyspqr.libs", f"lib{name}*"),      # auditwheel (Linux)
                os.path.join(os.path.dirname(here), "pyspqr.libs", f"{name}*.dll"),     # delvewheel (Windows)
                os.path.join(here, ".dylibs", f"lib{name}*")]                           # delocate (macOS)
    found = [p for pattern in patterns for p in sorted(glob.glob(pattern))]
    import ctypes.util

    system = ctypes.util.find_library(name)     # a pyspqr built against the system's SuiteSparse
    return found + ([system] if system else [])


def suitesparse():
    """The :class:`SuiteSparse` C interface of pyspqr's SuiteSparseQR, or None where it cannot be loaded or checked."""
    if not _SUITESPARSE:
        lib = None
        try:
            import pyspqr  # noqa: F401  (loads its SuiteSparse libraries)

            spqr = ctypes.CDLL(_library_paths("spqr")[0])
            cholmod = ctypes.CDLL(_library_paths("cholmod")[0])
            lib = SuiteSparse(spqr, cholmod)
            _self_check(lib)
        except (ImportError, IndexError, OSError, AttributeError, ValueError, MemoryError):
            lib = None
        _SUITESPARSE.append(lib)
    return _SUITESPARSE[0]


def _self_check(lib):
    """R^T R = B^T B (permuted) on a small rank-deficient matrix, and SuiteSparseQR's rank estimate: else OSError."""
    B = sp.csc_matrix(np.array([[1.0, 2, 0, 3], [0, 1, 1, 1], [2, 0, 1, 2], [1, 1, 0, 2], [0, 3, 1, 3]]))
    rank, R, perm, stats = lib.qr(B, 1e-12)
    R, Bp = R.toarray(), B[:, perm].toarray()
    if rank != 3 or R.shape != (3, 4) or not np.allclose(R.T @ R, Bp.T @ Bp, atol=1e-12):
        raise OSError("SuiteSparseQR's C interface did not pass the check")

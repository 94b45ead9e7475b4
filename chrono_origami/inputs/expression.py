"""Functions of time read from text, safely (no ``eval``), with exact symbolic derivatives.

``Expression("0.5*(1 - cos(pi*t))")``: numbers, ``t`` (s), ``pi``, ``e``,
``+ - * / **``, unary minus, and the functions of :data:`FUNCTIONS`
(``clip(x, lo, hi)`` = ``min(max(x, lo), hi)``). Anything else (names,
attributes, calls of other functions, comprehensions...) is refused with an
:class:`ExpressionError` naming it. :meth:`Expression.derivative` is exact,
piecewise for ``min``/``max``/``abs`` (the derivative of the branch taken).
Used by hinge motors (``--motor H:FUNC``) for prescribed angles and their
speed and acceleration.
"""
import ast
import math
import operator

import numpy as np

from ..tools.errors import ExpressionError, OrigamiError


# ======================================================================= expressions
#: functions an expression may call: name -> (number of arguments, NumPy function)
FUNCTIONS = {
    "sin": (1, np.sin), "cos": (1, np.cos), "tan": (1, np.tan), "asin": (1, np.arcsin),
    "acos": (1, np.arccos), "atan": (1, np.arctan), "sinh": (1, np.sinh), "cosh": (1, np.cosh),
    "tanh": (1, np.tanh), "exp": (1, np.exp), "log": (1, np.log), "sqrt": (1, np.sqrt),
    "abs": (1, np.abs), "sign": (1, np.sign), "min": (2, np.minimum), "max": (2, np.maximum),
    "clip": (3, None),
}
CONSTANTS = {"pi": math.pi, "e": math.e}
_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "**": operator.pow}


# Expression trees are tuples: ("num", value), ("t",), (op, a, b) for op in + - * / **,
# ("neg", a), ("call", name, a, ...), ("le", a, b) (1.0 where a <= b, else 0.0).
def _num(x):
    return ("num", float(x))


def _is_num(n, value=None):
    return n[0] == "num" and (value is None or n[1] == value)


def _add(a, b):
    if _is_num(a) and _is_num(b):
        return _num(a[1] + b[1])
    if _is_num(a, 0.0):
        return b
    if _is_num(b, 0.0):
        return a
    return ("+", a, b)


def _sub(a, b):
    if _is_num(a) and _is_num(b):
        return _num(a[1] - b[1])
    if _is_num(b, 0.0):
        return a
    if _is_num(a, 0.0):
        return _neg(b)
    return ("-", a, b)


def _mul(a, b):
    if _is_num(a) and _is_num(b):
        return _num(a[1] * b[1])
    if _is_num(a, 0.0) or _is_num(b, 0.0):
        return _num(0.0)
    if _is_num(a, 1.0):
        return b
    if _is_num(b, 1.0):
        return a
    return ("*", a, b)


def _div(a, b):
    if _is_num(a, 0.0):
        return _num(0.0)
    if _is_num(b, 1.0):
        return a
    return ("/", a, b)


def _neg(a):
    if _is_num(a):
        return _num(-a[1])
    if a[0] == "neg":
        return a[1]
    return ("neg", a)


def _pow(a, b):
    if _is_num(b, 1.0):
        return a
    if _is_num(b, 0.0):
        return _num(1.0)
    return ("**", a, b)


def _call(name, *args):
    return ("call", name) + tuple(args)


def _where(cond, x, y):
    """x where cond (a 0/1 node) else y."""
    if x == y:
        return x
    return _add(_mul(cond, x), _mul(_sub(_num(1.0), cond), y))


def _has_t(n):
    if n[0] == "t":
        return True
    if n[0] == "num":
        return False
    return any(_has_t(c) for c in n[1:] if isinstance(c, tuple))


def _d(n):
    """Derivative of node ``n`` with respect to t (a node)."""
    kind = n[0]
    if kind == "num":
        return _num(0.0)
    if kind == "t":
        return _num(1.0)
    if kind == "le":
        return _num(0.0)
    if kind == "neg":
        return _neg(_d(n[1]))
    if kind in ("+", "-"):
        return (_add if kind == "+" else _sub)(_d(n[1]), _d(n[2]))
    if kind == "*":
        a, b = n[1], n[2]
        return _add(_mul(_d(a), b), _mul(a, _d(b)))
    if kind == "/":
        a, b = n[1], n[2]
        return _div(_sub(_mul(_d(a), b), _mul(a, _d(b))), _pow(b, _num(2.0)))
    if kind == "**":
        a, b = n[1], n[2]
        if not _has_t(b):
            return _mul(_mul(b, _pow(a, _sub(b, _num(1.0)))), _d(a))
        return _mul(n, _add(_mul(_d(b), _call("log", a)), _div(_mul(b, _d(a)), a)))
    name, args = n[1], n[2:]
    a = args[0]
    da = _d(a)
    if name in ("min", "max"):
        b = args[1]
        first = ("le", a, b) if name == "min" else ("le", b, a)
        return _where(first, da, _d(b))
    if name == "sign":
        return _num(0.0)
    if _is_num(da, 0.0):
        return _num(0.0)
    outer = {
        "sin": lambda: _call("cos", a),
        "cos": lambda: _neg(_call("sin", a)),
        "tan": lambda: _add(_num(1.0), _pow(_call("tan", a), _num(2.0))),
        "asin": lambda: _div(_num(1.0), _call("sqrt", _sub(_num(1.0), _pow(a, _num(2.0))))),
        "acos": lambda: _neg(_div(_num(1.0), _call("sqrt", _sub(_num(1.0), _pow(a, _num(2.0)))))),
        "atan": lambda: _div(_num(1.0), _add(_num(1.0), _pow(a, _num(2.0)))),
        "sinh": lambda: _call("cosh", a),
        "cosh": lambda: _call("sinh", a),
        "tanh": lambda: _sub(_num(1.0), _pow(_call("tanh", a), _num(2.0))),
        "exp": lambda: n,
        "log": lambda: _div(_num(1.0), a),
        "sqrt": lambda: _div(_num(0.5), n),
        "abs": lambda: _call("sign", a),
    }[name]()
    return _mul(outer, da)


def _evaluate(n, t):
    kind = n[0]
    if kind == "num":
        return n[1]
    if kind == "t":
        return t
    if kind == "neg":
        return -_evaluate(n[1], t)
    if kind == "le":
        return np.where(_evaluate(n[1], t) <= _evaluate(n[2], t), 1.0, 0.0)
    if kind in _OPS:
        return _OPS[kind](_evaluate(n[1], t), _evaluate(n[2], t))
    return FUNCTIONS[n[1]][1](*[_evaluate(a, t) for a in n[2:]])


def _show(n):
    kind = n[0]
    if kind == "num":
        return repr(n[1])
    if kind == "t":
        return "t"
    if kind == "neg":
        return f"(-{_show(n[1])})"
    if kind == "le":
        return f"({_show(n[1])} <= {_show(n[2])})"
    if kind in _OPS:
        return f"({_show(n[1])} {kind} {_show(n[2])})"
    return f"{n[1]}({', '.join(_show(a) for a in n[2:])})"


class Expression:
    """A function of time t (s) read from text, evaluated with NumPy; :meth:`derivative` is exact.

    ``Expression("0.3*(1 - cos(pi*t))")(0.5)``. ``text`` is the source (or, for
    a derivative, the derived formula).
    """

    def __init__(self, text, _tree=None):
        self.text = str(text)
        self._tree = _parse(self.text) if _tree is None else _tree

    def __call__(self, t):
        with np.errstate(all="ignore"):
            v = _evaluate(self._tree, t)
        return float(v) if np.ndim(v) == 0 else np.asarray(v, float)

    def derivative(self):
        """d/dt of this expression, an :class:`Expression`."""
        tree = _d(self._tree)
        return Expression(_show(tree), tree)

    def __repr__(self):
        return f"Expression({self.text!r})"

    def __eq__(self, other):
        return isinstance(other, Expression) and other._tree == self._tree

    def __hash__(self):
        return hash(self._tree)


def _parse(text):
    where = f"function of time {text!r}"
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise ExpressionError(f"{where}: not a valid expression ({e.msg})") from None

    def conv(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return _num(node.value)
        if isinstance(node, ast.Name):
            if node.id == "t":
                return ("t",)
            if node.id in CONSTANTS:
                return _num(CONSTANTS[node.id])
            raise ExpressionError(f"{where}: unknown name {node.id!r} (the variable is t; constants pi, e; "
                                  f"functions {', '.join(FUNCTIONS)})")
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return (_BINARY[type(node.op)], conv(node.left), conv(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            a = conv(node.operand)
            return _neg(a) if isinstance(node.op, ast.USub) else a
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name not in FUNCTIONS:
                raise ExpressionError(f"{where}: unknown function {name!r} (known: {', '.join(FUNCTIONS)})")
            if node.keywords:
                raise ExpressionError(f"{where}: {name}() takes no keyword arguments")
            n_args = FUNCTIONS[name][0]
            if len(node.args) != n_args:
                raise ExpressionError(f"{where}: {name}() takes {n_args} argument(s), got {len(node.args)}")
            args = [conv(a) for a in node.args]
            if name == "clip":
                return _call("min", _call("max", args[0], args[1]), args[2])
            return _call(name, *args)
        shown = ast.get_source_segment(text.strip(), node) or type(node).__name__
        raise ExpressionError(f"{where}: {shown!r} is not allowed (numbers, t, pi, e, + - * / **, and the "
                              f"functions {', '.join(FUNCTIONS)})")

    return conv(tree.body)


def as_function(function, what):
    """A callable t -> float from a callable, a number or an expression text (:class:`Expression`)."""
    if isinstance(function, str):
        return Expression(function)
    if isinstance(function, (int, float, np.integer, np.floating)) and not isinstance(function, bool):
        if not np.isfinite(function):
            raise OrigamiError(f"{what}: the value must be finite, got {function!r}")
        return Expression(repr(float(function)))
    if callable(function):
        return function
    raise OrigamiError(f"{what}: expected a function of time (a callable or an expression text in t), "
                       f"got {function!r}")


def derivative(function, step=1e-5):
    """d/dt of ``function``: its own ``derivative()`` when it has one, else a fourth-order central difference.

    The difference quotient uses the step ``step * max(1, |t|)`` (s); its
    error is O(step^4) times the fifth derivative, plus rounding ~1e-11 / step.
    """
    own = getattr(function, "derivative", None)
    if callable(own):
        return own()

    def d(t):
        h = step * max(1.0, abs(float(t)))
        f = function
        return float((8 * (f(t + h) - f(t - h)) - (f(t + 2 * h) - f(t - 2 * h))) / (12 * h))

    return d

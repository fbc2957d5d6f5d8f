"""``mindspore._checkparam`` (imported as ``Validator``): the argument checks user code reuses
in its own cells and optimizers. Each returns the value it checked and raises MindSpore's
error type (TypeError for a wrong type, ValueError for a value out of range)."""
from __future__ import annotations

import math
import operator
from collections.abc import Iterable

# binary relations and the interval kinds of the range checks
EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10
IN, NOT_IN = 11, 12

_BINARY = {EQ: (operator.eq, "= {}"), NE: (operator.ne, "!= {}"), LT: (operator.lt, "< {}"),
           LE: (operator.le, "<= {}"), GT: (operator.gt, "> {}"), GE: (operator.ge, ">= {}"),
           IN: (lambda a, b: a in b, "in {}"), NOT_IN: (lambda a, b: a not in b, "not in {}")}
# (closed at the lower end, closed at the upper end, how the interval is written)
_INTERVAL = {INC_NEITHER: (False, False, "({}, {})"), INC_LEFT: (True, False, "[{}, {})"),
             INC_RIGHT: (False, True, "({}, {}]"), INC_BOTH: (True, True, "[{}, {}]")}


def _who(arg_name, prim_name) -> str:
    """``For 'prim', the 'arg'`` (or ``The input value``) to open a message."""
    head = f"For '{prim_name}', the " if prim_name else "The "
    return head + (f"'{arg_name}'" if arg_name else "input value")


def _number(arg_value, arg_type: type, arg_name, prim_name):
    """``arg_value`` if it is an ``arg_type`` (never a bool) and finite."""
    who = _who(arg_name, prim_name)
    if isinstance(arg_value, bool) or not isinstance(arg_value, arg_type):
        raise TypeError(f"{who} must be {arg_type.__name__}, but got "
                        f"'{type(arg_value).__name__}'.")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{who} must be a legal value, but got '{arg_value}'.")
    return arg_value


def _compare(arg_value, value, rel, arg_type: type, arg_name=None, prim_name=None):
    _number(arg_value, arg_type, arg_name, prim_name)
    holds, text = _BINARY[rel]
    if not holds(arg_value, value):
        raise ValueError(f"{_who(arg_name, prim_name)} must be {arg_type.__name__} and must "
                         f"{text.format(value)}, but got '{arg_value}' with type "
                         f"'{type(arg_value).__name__}'.")
    return arg_value


def check_number_range(arg_value, lower_limit, upper_limit, rel, value_type, arg_name=None,
                       prim_name=None):
    """``arg_value`` of ``value_type`` inside the interval ``rel`` (``INC_...``) gives."""
    _number(arg_value, value_type, arg_name, prim_name)
    lo_closed, hi_closed, text = _INTERVAL[rel]
    above = arg_value >= lower_limit if lo_closed else arg_value > lower_limit
    below = arg_value <= upper_limit if hi_closed else arg_value < upper_limit
    if not (above and below):
        raise ValueError(f"{_who(arg_name, prim_name)} must be in range of "
                         f"{text.format(lower_limit, upper_limit)}, but got {arg_value}.")
    return arg_value


def check_int_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    return check_number_range(arg_value, lower_limit, upper_limit, rel, int, arg_name, prim_name)


def check_float_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    return check_number_range(arg_value, lower_limit, upper_limit, rel, float, arg_name,
                              prim_name)


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    return _compare(arg_value, value, rel, int, arg_name, prim_name)


def check_float(arg_value, value, rel, arg_name=None, prim_name=None):
    return _compare(arg_value, value, rel, float, arg_name, prim_name)


def check_is_int(arg_value, arg_name=None, prim_name=None):
    return _number(arg_value, int, arg_name, prim_name)


def check_is_float(arg_value, arg_name=None, prim_name=None):
    return _number(arg_value, float, arg_name, prim_name)


def check_equal_int(arg_value, value, arg_name=None, prim_name=None):
    return check_int(arg_value, value, EQ, arg_name, prim_name)


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    return check_int(arg_value, 0, GT, arg_name, prim_name)


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    return check_int(arg_value, 0, GE, arg_name, prim_name)


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    return check_float(arg_value, 0, GT, arg_name, prim_name)


def check_non_negative_float(arg_value, arg_name=None, prim_name=None):
    return check_float(arg_value, 0, GE, arg_name, prim_name)


def check_positive_int_sequence(sequence, arg_name=None, prim_name=None):
    for i, v in enumerate(sequence):
        check_positive_int(v, f"{arg_name or 'input'}[{i}]", prim_name)
    return sequence


def check_bool(arg_value, arg_name=None, prim_name=None):
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_who(arg_name, prim_name)} must be a bool, but got "
                        f"{type(arg_value).__name__}.")
    return arg_value


def check_string(arg_value, valid_values, arg_name=None, prim_name=None):
    if not (isinstance(arg_value, str) and arg_value in valid_values):
        raise ValueError(f"{_who(arg_name or 'parameter', prim_name)} must be str and must be "
                         f"in '{valid_values}', but got '{arg_value}'.")
    return arg_value


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    """``arg_value`` if it is an instance of one of ``valid_types`` (a bool only when
    ``bool`` is listed, though it is an int)."""
    types = tuple(valid_types) if isinstance(valid_types, Iterable) else (valid_types,)
    if (isinstance(arg_value, bool) and bool not in types) or not isinstance(arg_value, types):
        names = [getattr(t, "__name__", str(t)) for t in types]
        what = f"one of '{names}'" if len(names) > 1 else f"'{names[0]}'"
        head = f"For '{prim_name}', the" if prim_name else "The"
        raise TypeError(f"{head} type of '{arg_name}' should be {what}, but got type "
                        f"'{type(arg_value).__name__}'.")
    return arg_value


def check_subclass(arg_name, type_, template_types, prim_name, addition_error_info=None):
    """``type_`` if it is one of ``template_types`` (a dtype, or a sequence of them such as
    ``mstype.number_type``), else MindSpore's TypeError."""
    templates = tuple(template_types) if isinstance(template_types, Iterable) \
        else (template_types,)
    if any(type_ is t or type_ == t for t in templates):
        return type_
    extra = "" if addition_error_info is None else " " + addition_error_info
    got = f"type '{type(type_).__name__}'" if isinstance(type_, (tuple, list)) else str(type_)
    raise TypeError(f"For '{prim_name}', the element of '{arg_name}' must be "
                    f"{'one of ' if len(templates) > 1 else ''}"
                    f"{', '.join(str(t) for t in templates)}, but got {got}{extra}.The "
                    f"supported data types depend on the hardware that executes the operator, "
                    f"for more details, please refer to the MindSpore official website to get "
                    f"more information about the data type.")


def check_isinstance(arg_name, arg_value, classes):
    if not isinstance(arg_value, classes):
        raise ValueError(f"The '{arg_name}' must be {classes}, but got "
                         f"{type(arg_value).__name__}.")
    return arg_value

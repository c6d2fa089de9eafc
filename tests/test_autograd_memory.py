"""What autograd saves and frees (course_lib/lessons/autograd_memory.py) and exercise 03.5, against real PyTorch."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from course_lib.lessons import autograd_memory, exercises_03


@pytest.mark.parametrize("name, expected", [("sin(x)", 1), ("exp(x)", 1), ("x * x", 2), ("x + 1", 0)])
def test_saved_tensors_follow_each_derivative(name: str, expected: int) -> None:
    assert autograd_memory.saved_tensors(autograd_memory.OPS[name]) == expected
    assert autograd_memory.saved_tensors(autograd_memory.OPS[name], requires_grad=False) == 0


def test_a_second_backward_fails_unless_the_graph_is_retained() -> None:
    import math

    error, grad = autograd_memory.backward_twice(retain_graph=False)
    assert error is not None and error.kind == "RuntimeError" and "second time" in str(error)
    assert grad == pytest.approx(math.cos(2.0) * 2.0 + math.sin(2.0))  # d(sin x · x)/dx at 2, once
    kept, twice = autograd_memory.backward_twice(retain_graph=True)
    assert kept is None and twice == pytest.approx(2 * grad)


def test_no_grad_and_inference_mode_record_and_save_nothing() -> None:
    assert autograd_memory.not_recorded() == {"recording": (True, True), "torch.no_grad()": (False, False),
                                              "torch.inference_mode()": (False, False)}


def test_03_5_backward_choice_is_decided_by_pytorch() -> None:
    assert exercises_03.backward_verdict() == "b"
    ex = exercises_03.backward_choice()
    assert ex.check("b").ok
    for k in "acd":
        result = ex.check(k)
        assert result.ok is False and result.message.startswith(f"{k}: ")

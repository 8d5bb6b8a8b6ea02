import numpy as np

from bpseg_pgm.utils.plain import PlainArray, plain_array


def test_elements_are_python_numbers_and_the_array_is_unchanged():
    a = plain_array([0.25, 0.5, 1.0])
    assert isinstance(a, np.ndarray) and isinstance(a, PlainArray)
    assert repr(list(a)) == "[0.25, 0.5, 1.0]" and type(a[0]) is float
    assert repr(a) == "array([0.25, 0.5 , 1.  ])"
    assert repr([x for x in plain_array(np.array([0, 2], dtype=np.int64))]) == "[0, 2]"
    assert (a * 2).tolist() == [0.5, 1.0, 2.0] and a[[0, 2]].tolist() == [0.25, 1.0]
    assert a.mean() == 0.5833333333333334 and np.asarray(a).dtype == np.float64

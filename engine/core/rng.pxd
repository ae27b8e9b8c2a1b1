# Types for ``rng.py`` when ``tycoon compile`` builds it (an augmenting .pxd: the .py stays plain
# Python and runs as it is without a build). The generator's arithmetic in 64-bit unsigned C
# integers, where a product wraps modulo 2**64 just as the source's ``& _MASK`` makes it; see
# ``_draw``. Seeds and counters are below 2**64 (``Rng.from_seed`` masks the seed).
import cython

cdef unsigned long long _MASK, _GAMMA, _M1, _M2

@cython.locals(z=cython.ulonglong)
cpdef unsigned long long _draw(unsigned long long seed, unsigned long long counter)

@cython.locals(r=cython.ulonglong, x=cython.ulonglong)
cdef (unsigned long long, unsigned long long) _draw_below(unsigned long long seed, unsigned long long counter,
                                                          unsigned long long n)

@cython.locals(i=cython.Py_ssize_t, j=cython.ulonglong)
cdef unsigned long long _shuffle(list items, unsigned long long seed, unsigned long long counter)

# cython: language_level=3
"""The CPython allocator and garbage-collector tricks of mousehole's compiled cores, kept
apart from everything else: they reach into CPython's type objects, so they are written for
the versions the wheels are built for (CPython 3.9 to 3.14, docs/wheels.md; not the
free-threaded builds) and must be checked again for each new CPython minor version.

``MOUSEHOLE_NO_FAST_ALLOC=1`` in the environment (read once, when a core module is imported)
switches them all off: the public state classes are then ordinary Python subclasses of their
cores (GC-tracked, allocated by CPython, inherited methods called the usual way). The games
played are the same either way; only the cost of a state object changes."""

from cpython.object cimport PyTypeObject


cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    /* mousehole: make a public state class (a Python subclass of a compiled core that adds
       only methods, __slots__ = ()) as cheap to use as the core itself. CPython 3.9-3.14
       (the wheels' versions); each step names what of CPython it relies on.
       1. Its instances are not tracked by the garbage collector. CPython gives every class
          statement's instances a GC header, since a class attribute could point back at an
          instance; a state holds only its game and seed, which hold no state, so it cannot
          be part of a cycle. Relies on: subtype_dealloc's path for non-GC heap types
          (taken when Py_TPFLAGS_HAVE_GC is clear), tp_free = PyObject_Free for them.
       2. Each method of the core (and of its compiled bases) is re-declared on the subclass
          (same C function): the interpreter's specialised call of a method descriptor
          (3.11+) requires the instance's exact type to be the descriptor's, so inherited
          core methods were called the slow way. Relies on: PyMethodDescrObject.d_method (cpython/descrobject.h).
       3. Its instances come from a small pool of freed ones (a free list, as CPython keeps
          for floats and tuples): a state is allocated and freed once per clone, and the
          allocator's general path for objects over 512 bytes (the M state is 1.6 KB) costs
          more than the copy itself. One pool per class, for the first eight classes a module adopts (StateCore adopts
          every game's); not
          with a free-threaded interpreter (the pool relies on the GIL). Relies on: tp_alloc
          and tp_free of a heap type being called for every instance (PyType_GenericNew,
          subtype_dealloc), with PyObject_Init doing what PyType_GenericAlloc does for a
          non-GC, fixed-size object once it is zero-filled. */
    #define MH_POOL_CAP 64
    #define MH_POOL_TYPES 8
    typedef struct { PyTypeObject* type; int n; void* items[MH_POOL_CAP]; } mh_pool_t;
    static mh_pool_t mh_pools[MH_POOL_TYPES];
    static int mh_pools_n = 0;
    static int mh_fast_alloc = -1;  /* -1: not read yet; then 0 or 1 for this module */

    /* 1 unless MOUSEHOLE_NO_FAST_ALLOC is set to something other than "" or "0"; read once. */
    static int mh_fast_alloc_enabled(void) {
        if (mh_fast_alloc < 0) {
            const char* v = getenv("MOUSEHOLE_NO_FAST_ALLOC");
            mh_fast_alloc = (v == NULL || v[0] == 0 || strcmp(v, "0") == 0) ? 1 : 0;
        }
        return mh_fast_alloc;
    }

    static int mh_pool_last = 0;  /* the pool of the last lookup, tried first */
    static CYTHON_INLINE mh_pool_t* mh_pool_of(PyTypeObject* t) {
        int i;
        if (mh_pools[mh_pool_last].type == t) return &mh_pools[mh_pool_last];
        for (i = 0; i < mh_pools_n; i++)
            if (mh_pools[i].type == t) { mh_pool_last = i; return &mh_pools[i]; }
        return NULL;
    }
    static PyObject* mh_pool_alloc(PyTypeObject* t, Py_ssize_t nitems) {
        size_t size = (size_t)t->tp_basicsize;
        mh_pool_t* pool = mh_pool_of(t);
        void* o;
        (void)nitems;  /* fixed-size objects only (checked at adoption) */
        if (pool != NULL && pool->n > 0) {
            o = pool->items[--pool->n];
        } else {
            o = PyObject_Malloc(size);
            if (o == NULL) return PyErr_NoMemory();
        }
        memset(o, 0, size);  /* what PyType_GenericAlloc gives: every field zero */
        return PyObject_Init((PyObject*)o, t);  /* (takes a reference to the heap type) */
    }
    static void mh_pool_free(void* o) {
        mh_pool_t* pool = mh_pool_of(Py_TYPE((PyObject*)o));
        if (pool != NULL && pool->n < MH_POOL_CAP) {
            pool->items[pool->n++] = o;
        } else {
            PyObject_Free(o);
        }
    }

    static int mh_adopt_public_class(PyTypeObject* sub, PyTypeObject* core) {
        PyObject *key, *value;
        PyTypeObject* base;
        Py_ssize_t pos = 0;
        if (!(sub->tp_flags & Py_TPFLAGS_HEAPTYPE) || sub->tp_base != core
                || sub->tp_basicsize != core->tp_basicsize || sub->tp_dictoffset != 0
                || sub->tp_weaklistoffset != core->tp_weaklistoffset
                || (core->tp_flags & Py_TPFLAGS_HAVE_GC)) {
            PyErr_Format(PyExc_TypeError,
                         "%s must be a direct subclass of %s that adds only methods (__slots__ = ())",
                         sub->tp_name, core->tp_name);
            return -1;
        }
        if (!mh_fast_alloc_enabled()) return 0;  /* MOUSEHOLE_NO_FAST_ALLOC: an ordinary subclass */
        /* the core's methods, then those it inherits from its compiled bases (StateCore),
           each name once: the first class of the MRO that defines it decides */
        for (base = core; base != NULL && base != &PyBaseObject_Type; base = base->tp_base) {
            pos = 0;
            while (PyDict_Next(base->tp_dict, &pos, &key, &value)) {
                PyObject* d;
                PyTypeObject* t;
                int shadowed = 0;
                if (!Py_IS_TYPE(value, &PyMethodDescr_Type)) continue;
                if (PyDict_Contains(sub->tp_dict, key)) continue;
                for (t = core; t != base && !shadowed; t = t->tp_base) {
                    shadowed = PyDict_Contains(t->tp_dict, key);
                    if (shadowed < 0) return -1;
                }
                if (shadowed) continue;
                d = PyDescr_NewMethod(sub, ((PyMethodDescrObject*)value)->d_method);
                if (d == NULL) return -1;
                if (PyObject_SetAttr((PyObject*)sub, key, d) < 0) { Py_DECREF(d); return -1; }
                Py_DECREF(d);
            }
        }
        if (sub->tp_flags & Py_TPFLAGS_HAVE_GC) {
            sub->tp_flags &= ~Py_TPFLAGS_HAVE_GC;
            sub->tp_free = PyObject_Free;
            sub->tp_traverse = NULL;
            sub->tp_clear = NULL;
        }
    #ifndef Py_GIL_DISABLED
        if (mh_pools_n < MH_POOL_TYPES && sub->tp_itemsize == 0 && sub->tp_alloc == PyType_GenericAlloc
                && sub->tp_free == PyObject_Free) {
            mh_pools[mh_pools_n].type = sub;
            mh_pools[mh_pools_n].n = 0;
            mh_pools_n++;
            Py_INCREF(sub);  /* the pool's objects are of this class: keep it */
            sub->tp_alloc = mh_pool_alloc;
            sub->tp_free = mh_pool_free;
        }
    #endif
        PyType_Modified(sub);
        return 0;
    }
    """
    int mh_adopt_public_class(PyTypeObject* sub, PyTypeObject* core) except -1
    int mh_fast_alloc_enabled()


cdef inline void adopt_public_class(type sub, type core) except *:
    """Make ``sub`` (the public state class: ``class X(Core, Mixin): __slots__ = ()``) as
    cheap as ``core``: no GC tracking, core methods called the specialised way, a free list
    of its objects (none of it with ``MOUSEHOLE_NO_FAST_ALLOC=1``). Call it once, right after
    the class statement, before any instance exists; ``TypeError`` if ``sub`` adds fields."""
    mh_adopt_public_class(<PyTypeObject*>sub, <PyTypeObject*>core)

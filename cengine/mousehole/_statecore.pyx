# cython: language_level=3
"""``StateCore``, the compiled base class of the cores' state classes (``_statecore.pxd``):
what every core's class did the same way, written once. A core subclasses it, declares its
struct after ``game`` and ``seed``, and defines ``_init``, ``_iface`` and ``_struct``; its own
``_from_valid_dict`` (which ``_api.load_state_as`` finds on the core itself) and its methods
over the struct stay in the core."""

cimport cython

from mousehole._rng cimport uint64_t
from mousehole._cgame cimport mh_game_t, game_capsule, state_capsule
from mousehole._boundary cimport new_instance, seed_arg, fresh_seed


# It holds its game and seed, which hold no state (a game's cached ``_compiled_cfg`` is a
# capsule of constants): no cycle goes through a state, so it is not traversed by the GC.
@cython.no_gc
cdef class StateCore:
    """The part of a compiled state that does not depend on the game (not used alone)."""

    cdef int _init(self, object game, uint64_t seed) except -1:
        raise TypeError(f"{type(self).__name__} is not a game's compiled state class")

    cdef const mh_game_t* _iface(self) noexcept:
        return NULL

    cdef void* _struct(self) noexcept:
        return NULL

    @classmethod
    def new(cls, game, uint64_t seed):
        """A new state of class ``cls`` (a core or its public class) of ``game``, dealt from
        ``seed``."""
        cdef StateCore st = <StateCore>new_instance(cls)
        st.game = game
        st.seed = seed
        st._init(game, seed)
        return st

    @classmethod
    def _new_state_function(cls, game):
        """``game.new_state`` of this engine in one compiled call (``new`` with the
        seed's conversion, ``seed_arg``): the Game binds it when it is loaded."""
        cdef type t = cls

        def new_state(seed=None):
            # (with no seed, a fresh secret one from the operating system)
            cdef uint64_t sd = fresh_seed() if seed is None else seed_arg(seed)
            cdef StateCore st = <StateCore>new_instance(t)
            st.game = game
            st.seed = sd
            st._init(game, sd)
            return st

        return new_state

    @classmethod
    def from_dict(cls, game, d):
        """A state built from state dict ``d``, checked first exactly as
        ``game.state_from_dict(d)`` checks it (``StateError`` naming the key or the rule;
        ``TypeError`` for a game of another kind): no unchecked value reaches the struct."""
        from mousehole._api import load_state_as
        return load_state_as(cls, game, d)

    def _set_seed(self, seed):
        """Unpickling: the seed the pickled state was created from (or None)."""
        self.seed = seed

    def _c_game(self):
        """The C-level interface of the game (a capsule holding ``const mh_game_t*``)."""
        cdef const mh_game_t* g = self._iface()
        if g == NULL:
            raise TypeError(f"{type(self).__name__} is not a game's compiled state class")
        return game_capsule(g)

    def _c_state(self):
        """The address of this state's struct (a capsule; valid while the state lives)."""
        cdef void* s = self._struct()
        if s == NULL:
            raise TypeError(f"{type(self).__name__} is not a game's compiled state class")
        return state_capsule(s)

/* mousehole: a plain-C uniform-random player of Maus au Chocolat (rules MC-1 .. MC-25 of
 * docs/games/maus_au_chocolat.md, DEFAULT tables), the yardstick of `mousehole bench`.
 *
 *     ./maus_au_chocolat PLAYERS GAMES SEED      -> one line of JSON (limits.h)
 *
 * The action model is the one of mousehole.simulate: every decision draws one legal action
 * uniformly. Bids are made one seat after the other (seat 0 first); a bid is any hand card,
 * a pick any display card, a hand-limit discard any hand card; Etienne's holder may also
 * swap any hand card once a round (MC-16); at the combination step the seat may decline or
 * lay any distinct combination *outcome* (the cards laid and the cards kept, MC-10 ..
 * MC-23). A game is counted in actions, as the engine does.
 *
 * The combinations are counted, not listed. A hand keeps its number of cards per candy value
 * and per candy value and colour, and the cards of each value in a list with each card's
 * place in it (a card leaves in one step, the r-th card of a value is read directly). The
 * outcomes of three cards depend only on the helper, the value gaps between them and which
 * of them share a colour (a table built at start-up by the rules below); for each helper the
 * groups of values that can combine are written out with their count as a formula in those
 * numbers (a product of counts where every triple has one outcome; sums over the colours
 * where the number of outcomes depends on them), each helper's copy compiled on its own.
 * The drawn outcome is found by its group, then inside the group by arithmetic (the r-th
 * triple of one value from a table of index triples, of three values by mixed radix) where
 * every triple has one outcome, by a short walk otherwise.
 *
 * A round is written out in order (MC-5 .. MC-15: bids, picks, combination steps, the
 * helpers' rotation) with the game's state in locals; the draw pile is kept as a set and
 * each draw takes a random card of it, which is a shuffled pile drawn from the top (MC-3,
 * MC-6) without shuffling the cards nobody draws.
 */
#include "limits.h"

enum { NCARDS = 80, NV = 5, NCOL = 5, MAXP = 6, MAXH = 12, HELPERS = 7, LIMIT = 8, TARGET = 30, ROUNDS = 200 };
enum { ETIENNE, HENRI, MATHIEU, MAURICE, LILLY, AMELIE, CLAUDE }; /* rank 7 - id (MC-2) */

static uint8_t COLOUR[NCARDS], CANDY[NCARDS], COIN[NCARDS], VCLASS[NCARDS];

static void fill_cards(void) { /* MC-1: the DEFAULT table */
    static const int LOW[5] = {1, 2, 3, 3, 1}, HIGH[5] = {6, 7, 8, 8, 4};
    static const int CANDY_OF[16] = {3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 7, 7, 7};
    int i, k;
    for (i = 0; i < 5; i++)
        for (k = 0; k < 16; k++) {
            int c = 16 * i + k;
            COLOUR[c] = (uint8_t)i;
            CANDY[c] = (uint8_t)CANDY_OF[k];
            VCLASS[c] = (uint8_t)(CANDY_OF[k] - 3);
            COIN[c] = (uint8_t)(LOW[i] + k % (HIGH[i] - LOW[i] + 1));
        }
}

/* ---- the outcomes of three cards (MC-10, MC-12, MC-18 .. MC-23) ---------------------------- */

/* The distinct kept sets (bit i: card i is kept) of laying cards with printed values v[],
 * colours col[] and ids id[] with `helper`; returns their number. */
static int outcomes3(int helper, const int *v, const int *col, const int *id, int *kept) {
    int top[3] = {0, 1, 2}, m[3], i, j, t, n = 0, mod;
    int one = col[0] == col[1] && col[1] == col[2];
    int two = col[0] == col[1] || col[1] == col[2] || col[0] == col[2];
    int mixed_ok = helper == CLAUDE ? 1 : !one;      /* MC-22: one card may change colour */
    int one_ok = helper == CLAUDE ? two : one;
    int d = helper == MATHIEU ? -1 : helper == MAURICE ? 1 : 0;
    for (i = 1; i < 3; i++) /* MC-23: by printed value, highest first, then lowest id */
        for (j = i; j > 0 && (v[top[j]] > v[top[j - 1]] || (v[top[j]] == v[top[j - 1]] && id[top[j]] < id[top[j - 1]])); j--) {
            t = top[j];
            top[j] = top[j - 1];
            top[j - 1] = t;
        }
    for (mod = -1; mod < (d ? 3 : 0); mod++) { /* MC-18, MC-19: no change, or one card +-1 */
        int got[2], ng = 0, lo = 0, hi = 0;
        for (i = 0; i < 3; i++)
            m[i] = v[i] + (i == mod ? d : 0);
        if (m[0] == m[1] && m[1] == m[2]) { /* a set: one card kept, two in one colour */
            if (mixed_ok) got[ng++] = 1 << top[0];
            if (one_ok) got[ng++] = (1 << top[0]) | (1 << top[1]);
        } else if (m[0] != m[1] && m[1] != m[2] && m[0] != m[2]) {
            for (i = 1; i < 3; i++) {
                if (m[i] < m[lo]) lo = i;
                if (m[i] > m[hi]) hi = i;
            }
            if (m[hi] - m[lo] == 2) { /* a run: the lowest card kept (Lilly: the highest), in one colour the highest */
                if (mixed_ok) got[ng++] = 1 << (helper == LILLY ? hi : lo);
                if (one_ok) got[ng++] = 1 << hi;
            }
        }
        for (i = 0; i < ng; i++) {
            for (j = 0; j < n && kept[j] != got[i]; j++)
                ;
            if (j == n)
                kept[n++] = got[i];
        }
    }
    return n;
}

/* Colour patterns of three cards in order (value, then id): AAA all one colour, AAB the first
 * two alike, ABA the first and last, ABB the last two, ABC all different. */
enum { AAA, AAB, ABA, ABB, ABC };
static const int PATTERN_COL[5][3] = {{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {0, 1, 1}, {0, 1, 2}};

/* F[h][d1][d2][cp]: the outcomes of three cards with values x, x + d1, x + d1 + d2 (ids
 * ascending). Gaps above 3 never combine. */
static uint8_t F[HELPERS][4][4][5];
/* KEPT[h][d1][d2][cp][i]: the i-th of those outcomes (kept cards as bits of the three, in
 * the order value, then id) */
static uint8_t KEPT[HELPERS][4][4][5][4];

static int pattern_of(int c0, int c1, int c2) {
    if (c0 == c1) return c1 == c2 ? AAA : AAB;
    if (c0 == c2) return ABA;
    return c1 == c2 ? ABB : ABC;
}

static void fill_outcomes(void) {
    int h, d1, d2, cp, kept[8], ids[3] = {0, 1, 2};
    for (h = 0; h < HELPERS; h++)
        for (d1 = 0; d1 < 4; d1++)
            for (d2 = 0; d1 + d2 < 4; d2++) {
                int v[3] = {10, 10 + d1, 10 + d1 + d2};
                for (cp = 0; cp < 5; cp++) {
                    int i, nk = outcomes3(h, v, PATTERN_COL[cp], ids, kept);
                    F[h][d1][d2][cp] = (uint8_t)nk;
                    for (i = 0; i < nk; i++)
                        KEPT[h][d1][d2][cp][i] = (uint8_t)kept[i];
                }
                /* the counts below lump together the patterns that differ only in which of two
                 * equal values (ids in either order) matches the third card: check it holds */
                if ((d1 == 0 && F[h][d1][d2][ABA] != F[h][d1][d2][ABB]) ||
                    (d2 == 0 && F[h][d1][d2][AAB] != F[h][d1][d2][ABA])) {
                    fprintf(stderr, "maus_au_chocolat: outcome table not symmetric\n");
                    exit(3);
                }
            }
}

/* The formulas below rest on these numbers of outcomes per colour pattern: check them
 * against the table the rules built (exit 3 if they differ). */
static void check_forms(void) {
    static const struct { int h, d1, d2; uint8_t f[5]; } FORMS[] = {
        {ETIENNE, 0, 0, {1, 1, 1, 1, 1}}, {ETIENNE, 1, 1, {1, 1, 1, 1, 1}},
        {HENRI, 0, 0, {1, 1, 1, 1, 1}}, {HENRI, 1, 1, {1, 1, 1, 1, 1}},
        {LILLY, 0, 0, {1, 1, 1, 1, 1}}, {LILLY, 1, 1, {1, 1, 1, 1, 1}},
        {AMELIE, 0, 0, {1, 1, 1, 1, 1}}, {AMELIE, 1, 1, {1, 1, 1, 1, 1}},
        {CLAUDE, 0, 0, {2, 2, 2, 2, 1}}, {CLAUDE, 1, 1, {2, 2, 2, 2, 1}},
        {MATHIEU, 0, 0, {1, 1, 1, 1, 1}}, {MATHIEU, 1, 1, {1, 1, 1, 1, 1}}, {MATHIEU, 1, 2, {1, 1, 1, 1, 1}},
        {MATHIEU, 0, 1, {2, 3, 3, 3, 3}}, {MATHIEU, 2, 0, {2, 1, 1, 1, 1}},
        {MAURICE, 0, 0, {1, 1, 1, 1, 1}}, {MAURICE, 1, 1, {1, 1, 1, 1, 1}}, {MAURICE, 2, 1, {1, 1, 1, 1, 1}},
        {MAURICE, 0, 2, {1, 2, 2, 2, 2}}, {MAURICE, 1, 0, {3, 2, 2, 2, 2}},
    };
    int h, d1, d2, i, cp, combining = 0, forms = (int)(sizeof FORMS / sizeof FORMS[0]);
    for (i = 0; i < forms; i++)
        if (memcmp(F[FORMS[i].h][FORMS[i].d1][FORMS[i].d2], FORMS[i].f, 5) != 0)
            break;
    for (h = 0; h < HELPERS; h++) /* and no other gaps combine */
        for (d1 = 0; d1 < 4; d1++)
            for (d2 = 0; d1 + d2 < 4; d2++) {
                int any = 0;
                for (cp = 0; cp < 5; cp++)
                    any |= F[h][d1][d2][cp] != 0;
                combining += any;
            }
    if (i != forms || combining != forms) {
        fprintf(stderr, "maus_au_chocolat: the outcome table differs from the counting formulas\n");
        exit(3);
    }
}

/* ---- hands ------------------------------------------------------------------------------ */

typedef struct {
    int size;
    uint8_t n[NV];           /* cards per candy value (3..7 as 0..4) */
    uint8_t nc[NV][NCOL];    /* ... and colour */
    uint8_t of[NV][MAXH];    /* the cards of each value, in no order */
    uint8_t all[MAXH];       /* the whole hand, in no order */
    uint8_t at_of[NCARDS], at_all[NCARDS]; /* where each card of the hand is in those lists */
} hand_t;

LIM_INLINE void hand_add(hand_t *h, int c) {
    int v = VCLASS[c];
    h->nc[v][COLOUR[c]]++;
    h->at_of[c] = h->n[v];
    h->of[v][h->n[v]++] = (uint8_t)c;
    h->at_all[c] = (uint8_t)h->size;
    h->all[h->size++] = (uint8_t)c;
}

LIM_INLINE void hand_remove(hand_t *h, int c) { /* the last card of each list fills the hole */
    int v = VCLASS[c], last_of = h->of[v][--h->n[v]], last = h->all[--h->size];
    h->nc[v][COLOUR[c]]--;
    h->of[v][h->at_of[c]] = (uint8_t)last_of;
    h->at_of[last_of] = h->at_of[c];
    h->all[h->at_all[c]] = (uint8_t)last;
    h->at_all[last] = h->at_all[c];
}

/* ---- counting the combinations ------------------------------------------------------------ */

static const uint8_t C2[MAXH + 1] = {0, 0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66};
static const uint16_t C3[MAXH + 1] = {0, 0, 0, 1, 4, 10, 20, 35, 56, 84, 120, 165, 220};
static const uint16_t C4[MAXH + 1] = {0, 0, 0, 0, 1, 5, 15, 35, 70, 126, 210, 330, 495};

/* The groups of a helper, in the order its count lists them: kind, then the values a <= b
 * <= c (classes). ONE: every triple has one outcome; WALK: it depends on the colours (the
 * triples are walked); FOUR_SET, FOUR_RUN: Amelie's four cards (MC-21). */
enum { ONE, WALK, FOUR_SET, FOUR_RUN };
typedef struct {
    uint8_t kind, a, b, c;
} group_t;
enum { MAXG = 17 };
static const int NGROUPS[HELPERS] = {8, 8, 17, 17, 8, 15, 8};
#define SETS(k) {k, 0, 0, 0}, {k, 1, 1, 1}, {k, 2, 2, 2}, {k, 3, 3, 3}, {k, 4, 4, 4}
#define RUNS(k) {k, 0, 1, 2}, {k, 1, 2, 3}, {k, 2, 3, 4}
static const group_t GROUPS[HELPERS][MAXG] = {
    {SETS(ONE), RUNS(ONE)}, /* Etienne */
    {SETS(ONE), RUNS(ONE)}, /* Henri */
    {SETS(ONE), RUNS(ONE), /* Mathieu (MC-18): one card counts 1 less */
     {WALK, 0, 0, 1}, {WALK, 1, 1, 2}, {WALK, 2, 2, 3}, {WALK, 3, 3, 4},
     {WALK, 0, 2, 2}, {WALK, 1, 3, 3}, {WALK, 2, 4, 4}, {ONE, 0, 1, 3}, {ONE, 1, 2, 4}},
    {SETS(ONE), RUNS(ONE), /* Maurice (MC-19): one card counts 1 more */
     {WALK, 0, 0, 2}, {WALK, 1, 1, 3}, {WALK, 2, 2, 4},
     {WALK, 0, 1, 1}, {WALK, 1, 2, 2}, {WALK, 2, 3, 3}, {WALK, 3, 4, 4}, {ONE, 0, 2, 3}, {ONE, 1, 3, 4}},
    {SETS(ONE), RUNS(ONE)}, /* Lilly */
    {SETS(ONE), RUNS(ONE), SETS(FOUR_SET), {FOUR_RUN, 0, 1, 2}, {FOUR_RUN, 1, 2, 3}}, /* Amelie */
    {SETS(WALK), RUNS(WALK)}, /* Claude (MC-22) */
};

LIM_INLINE int dot(const uint8_t *x, const uint8_t *y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3] + x[4] * y[4]; }

/* sum over the colours of C2(x_k) y_k: the triples (two of x, one of y) in one colour */
LIM_INLINE int pairs_dot(const uint8_t *x, const uint8_t *y) {
    return C2[x[0]] * y[0] + C2[x[1]] * y[1] + C2[x[2]] * y[2] + C2[x[3]] * y[3] + C2[x[4]] * y[4];
}

/* Claude: two outcomes for a triple unless its three colours differ (MC-22) */
LIM_INLINE int claude_set(const hand_t *h, int v) {
    const uint8_t *x = h->nc[v];
    int e1 = 0, e2 = 0, e3 = 0, k; /* e3: the triples of three colours, built colour by colour */
    LIM_UNROLL
    for (k = 0; k < NCOL; k++) {
        e3 += e2 * x[k];
        e2 += e1 * x[k];
        e1 += x[k];
    }
    return 2 * C3[h->n[v]] - e3;
}

LIM_INLINE int claude_run(const hand_t *h, int v) { /* all + those with a colour twice */
    const uint8_t *x = h->nc[v], *y = h->nc[v + 1], *z = h->nc[v + 2];
    int na = h->n[v], nb = h->n[v + 1], nc = h->n[v + 2], k, one = 0;
    LIM_UNROLL
    for (k = 0; k < NCOL; k++)
        one += x[k] * y[k] * z[k];
    return na * nb * nc + dot(x, y) * nc + dot(y, z) * na + dot(x, z) * nb - 2 * one;
}

/* The outcomes of each group of helper `hh` (a constant where this is inlined) into g, and
 * their sum; 0 with fewer than four cards (MC-11: one card must stay). */
LIM_INLINE int count_groups(const hand_t *h, int hh, int *g) {
    const uint8_t *n = h->n;
    int total = 0, v, i = 0;
#define GROUP(x) (total += g[i++] = (x))
    if (hh == CLAUDE) {
        LIM_UNROLL
        for (v = 0; v < NV; v++)
            GROUP(claude_set(h, v));
        LIM_UNROLL
        for (v = 0; v + 2 < NV; v++)
            GROUP(claude_run(h, v));
        return total & (0 - (h->size >= 4)); /* (g is read only when the total is not 0) */
    }
    LIM_UNROLL
    for (v = 0; v < NV; v++)
        GROUP(C3[n[v]]);
    LIM_UNROLL
    for (v = 0; v + 2 < NV; v++)
        GROUP(n[v] * n[v + 1] * n[v + 2]);
    if (hh == MATHIEU) {
        LIM_UNROLL
        for (v = 0; v + 1 < NV; v++) /* v v v+1: 2 outcomes in one colour, else 3 */
            GROUP(3 * C2[n[v]] * n[v + 1] - pairs_dot(h->nc[v], h->nc[v + 1]));
        LIM_UNROLL
        for (v = 0; v + 2 < NV; v++) /* v v+2 v+2: 2 in one colour, else 1 */
            GROUP(n[v] * C2[n[v + 2]] + pairs_dot(h->nc[v + 2], h->nc[v]));
        GROUP(n[0] * n[1] * n[3]);
        GROUP(n[1] * n[2] * n[4]);
    } else if (hh == MAURICE) {
        LIM_UNROLL
        for (v = 0; v + 2 < NV; v++) /* v v v+2: 1 in one colour, else 2 */
            GROUP(2 * C2[n[v]] * n[v + 2] - pairs_dot(h->nc[v], h->nc[v + 2]));
        LIM_UNROLL
        for (v = 0; v + 1 < NV; v++) /* v v+1 v+1: 3 in one colour, else 2 */
            GROUP(2 * n[v] * C2[n[v + 1]] + pairs_dot(h->nc[v + 1], h->nc[v]));
        GROUP(n[0] * n[2] * n[3]);
        GROUP(n[1] * n[3] * n[4]);
    } else if (hh == AMELIE) { /* MC-21: four cards, five in hand */
        int five = h->size >= 5;
        LIM_UNROLL
        for (v = 0; v < NV; v++)
            GROUP(five * C4[n[v]]);
        GROUP(five * n[0] * n[1] * n[2] * n[3]);
        GROUP(five * n[1] * n[2] * n[3] * n[4]);
    }
#undef GROUP
    return total & (0 - (h->size >= 4)); /* MC-11, without a branch */
}

/* ---- finding the r-th outcome ------------------------------------------------------------- */

typedef struct {
    int k, keep;    /* cards laid; bit i: card[i] is kept */
    uint8_t card[4];
} combo_t;

static uint8_t TRIPLE[220][3], QUAD[495][4]; /* the r-th index triple (quadruple) below 12, colex */
static uint64_t INV[MAXH + 1];               /* x / d = (x * INV[d]) >> 32 for the x used here */

static void fill_indices(void) {
    int a, b, c, d, n3 = 0, n4 = 0;
    uint32_t x;
    for (c = 0; c < MAXH; c++) /* colex: the first C3(m) use only indices below m */
        for (b = 0; b < c; b++)
            for (a = 0; a < b; a++) {
                TRIPLE[n3][0] = (uint8_t)a, TRIPLE[n3][1] = (uint8_t)b, TRIPLE[n3++][2] = (uint8_t)c;
                for (d = 0; d < a; d++)
                    QUAD[n4][0] = (uint8_t)d, QUAD[n4][1] = (uint8_t)a, QUAD[n4][2] = (uint8_t)b, QUAD[n4++][3] = (uint8_t)c;
            }
    for (d = 1; d <= MAXH; d++) { /* x < 12^4: checked */
        INV[d] = ((1ULL << 32) + (uint64_t)d - 1) / (uint64_t)d;
        for (x = 0; x < 20736; x++)
            if ((uint32_t)((x * INV[d]) >> 32) != x / (uint32_t)d) {
                fprintf(stderr, "maus_au_chocolat: reciprocal of %d\n", d);
                exit(3);
            }
    }
}

/* split r by d: returns r % d, leaves r / d in *q */
LIM_INLINE int split(int r, int d, int *q) {
    int t = (int)(((uint64_t)r * INV[d]) >> 32);
    *q = t;
    return r - t * d;
}

/* three cards of values a <= b <= c: in the order value, then id, with their outcome j */
LIM_INLINE void triple(combo_t *o, int hh, int a, int b, int c, int x, int y, int z, int j) {
    int t;
    if (a == b && y < x)
        t = x, x = y, y = t;
    if (b == c && z < y) {
        t = y, y = z, z = t;
        if (a == b && y < x)
            t = x, x = y, y = t;
    }
    o->k = 3;
    o->card[0] = (uint8_t)x, o->card[1] = (uint8_t)y, o->card[2] = (uint8_t)z;
    o->keep = KEPT[hh][b - a][c - b][pattern_of(COLOUR[x], COLOUR[y], COLOUR[z])][j];
}

/* the triples of a WALK group in a fixed order, each with its number of outcomes */
static void walk(const hand_t *h, int hh, int a, int b, int c, int r, combo_t *o) {
    const uint8_t *f = F[hh][b - a][c - b], *A = h->of[a], *B = h->of[b], *C = h->of[c];
    int i, j, l, na = h->n[a], nb = h->n[b], nc = h->n[c];
    for (i = 0; i < na; i++)
        for (j = b == a ? i + 1 : 0; j < nb; j++)
            for (l = c == b ? j + 1 : 0; l < nc; l++) {
                int x = A[i], y = B[j], z = C[l], t, m;
                if (a == b && y < x) /* the pattern in the order value, then id */
                    t = x, x = y, y = t;
                if (b == c && z < y) {
                    t = y, y = z, z = t;
                    if (a == b && y < x)
                        t = x, x = y, y = t;
                }
                m = f[pattern_of(COLOUR[x], COLOUR[y], COLOUR[z])];
                if (r < m) {
                    triple(o, hh, a, b, c, x, y, z, r);
                    return;
                }
                r -= m;
            }
    fprintf(stderr, "maus_au_chocolat: combination not found\n");
    exit(3);
}

/* the r-th outcome (from 0) of those count_groups counted into g */
LIM_INLINE void find_combo(const hand_t *h, int hh, int r, const int *g, combo_t *o) {
    const group_t *d;
    int i, a, b, c, q, s, t, sum = 0, below = 0, at = 0;
    LIM_UNROLL
    for (i = 0; i < NGROUPS[hh] - 1; i++) { /* the group: a fixed number of steps, no branches */
        int passed;
        sum += g[i];
        passed = sum <= r;
        at += passed;
        below += passed * g[i];
    }
    r -= below;
    d = &GROUPS[hh][at];
    a = d->a, b = d->b, c = d->c;
    if (d->kind == ONE) {
        if (a == c) { /* three of one value: the r-th index triple */
            const uint8_t *ix = TRIPLE[r];
            triple(o, hh, a, a, a, h->of[a][ix[0]], h->of[a][ix[1]], h->of[a][ix[2]], 0);
        } else { /* three values: one card of each, r in mixed radix */
            s = split(r, h->n[a], &q);
            t = split(q, h->n[b], &q);
            triple(o, hh, a, b, c, h->of[a][s], h->of[b][t], h->of[c][q], 0);
        }
    } else if (d->kind == WALK) {
        walk(h, hh, a, b, c, r, o);
    } else {
        int one, x, y, k, m;
        o->k = 4;
        if (d->kind == FOUR_SET) { /* the lowest ids kept: two, three in one colour */
            const uint8_t *ix = QUAD[r];
            for (k = 0; k < 4; k++)
                o->card[k] = h->of[a][ix[k]];
            for (x = 1; x < 4; x++) /* by id */
                for (y = x; y > 0 && o->card[y] < o->card[y - 1]; y--)
                    m = o->card[y], o->card[y] = o->card[y - 1], o->card[y - 1] = (uint8_t)m;
        } else { /* a run of four: the two lowest kept, in one colour the lowest and the highest */
            for (k = 0; k < 4; k++) {
                int s4 = split(r, h->n[a + k], &q);
                o->card[k] = h->of[a + k][s4];
                r = q;
            }
        }
        for (one = 1, k = 1; k < 4; k++)
            one &= COLOUR[o->card[k]] == COLOUR[o->card[0]];
        o->keep = d->kind == FOUR_SET ? (one ? 7 : 3) : (one ? 9 : 3);
    }
}

/* MC-10 .. MC-13: lay the outcome (kept cards score their candy value, the others go to the
 * discards) */
LIM_INLINE int lay(hand_t *h, const combo_t *o, uint8_t *discard, int *discard_n) {
    int i, gain = 0;
    for (i = 0; i < o->k; i++) {
        int c = o->card[i];
        hand_remove(h, c);
        if (o->keep >> i & 1)
            gain += CANDY[c];
        else
            discard[(*discard_n)++] = (uint8_t)c;
    }
    return gain;
}

/* ---- one game ------------------------------------------------------------------------------ */

typedef struct {
    hand_t hand[MAXP];
    uint8_t pile[NCARDS], discard[NCARDS], display[NCARDS];
    int pile_n, discard_n, display_n, score[MAXP], actions, etienne_used;
} game_t;

/* MC-6: a random card of the pile (a shuffled pile's top card); an empty pile takes the
 * discards; -1 when both are empty */
LIM_INLINE int draw(game_t *g, lim_fast *rng) {
    int i, c;
    if (g->pile_n == 0) {
        if (g->discard_n == 0)
            return -1;
        memcpy(g->pile, g->discard, (size_t)g->discard_n);
        g->pile_n = g->discard_n;
        g->discard_n = 0;
    }
    i = (int)lim_fast_below(rng, (uint32_t)g->pile_n);
    c = g->pile[i];
    g->pile[i] = g->pile[--g->pile_n];
    return c;
}

LIM_INLINE void swap_card(game_t *g, hand_t *h, int c, lim_fast *rng) { /* MC-16 */
    hand_remove(h, c);
    g->discard[g->discard_n++] = (uint8_t)c;
    hand_add(h, draw(g, rng)); /* the discards hold c: never -1 */
    g->etienne_used = 1;
}

/* the combination step of the seat holding helper hh (a constant where inlined), then its
 * hand-limit discards (MC-14) */
LIM_INLINE void combine_step(game_t *g, hand_t *h, int p, int hh, lim_fast *rng) {
    int groups[MAXG], k, swaps;
    for (;;) {
        int total = count_groups(h, hh, groups);
        swaps = hh == ETIENNE && !g->etienne_used ? h->size : 0;
        k = (int)lim_fast_below(rng, (uint32_t)(swaps + 1 + total));
        g->actions++;
        if (hh == ETIENNE && k < swaps) {
            swap_card(g, h, h->all[k], rng);
            continue;
        }
        if (k > swaps) {
            combo_t o;
            find_combo(h, hh, k - swaps - 1, groups, &o);
            g->score[p] += lay(h, &o, g->discard, &g->discard_n);
        }
        break;
    }
    while (h->size > LIMIT) {
        int c = h->all[lim_fast_below(rng, (uint32_t)h->size)];
        g->actions++;
        hand_remove(h, c);
        g->discard[g->discard_n++] = (uint8_t)c;
    }
}

static void play(game_t *g, int n, lim_fast *rng_state) {
    lim_fast rng = *rng_state;
    int helper[MAXP], row[HELPERS], bid[MAXP], order[MAXP], key[MAXP], seat_of[HELPERS];
    int row_n = HELPERS - n, round, i, p, q, c;
    memset(g, 0, sizeof *g);
    for (i = 0; i < NCARDS; i++) /* MC-3: the pile as a set, drawn at random */
        g->pile[i] = (uint8_t)i;
    g->pile_n = NCARDS;
    for (i = 0; i < 5; i++)
        for (p = 0; p < n; p++)
            hand_add(&g->hand[p], draw(g, &rng));
    for (i = 0; i <= n; i++)
        g->display[g->display_n++] = (uint8_t)draw(g, &rng);
    for (i = 0; i < HELPERS; i++) /* MC-4 */
        row[i] = i;
    for (i = HELPERS - 1; i > 0; i--) {
        int j = (int)lim_fast_below(&rng, (uint32_t)(i + 1)), t = row[i];
        row[i] = row[j];
        row[j] = t;
    }
    for (p = 0; p < n; p++)
        helper[p] = row[p];
    for (i = 0; i < row_n; i++)
        row[i] = row[n + i];

    for (round = 1;; round++) {
        int best = 0, first, last;
        g->etienne_used = 0;
        for (p = 0; p < n; p++) { /* MC-7: bids, seat after seat; MC-8: the order, strongest first */
            hand_t *h = &g->hand[p];
            for (;;) {
                int size = h->size, swaps = helper[p] == ETIENNE && !g->etienne_used ? size : 0;
                int k = (int)lim_fast_below(&rng, (uint32_t)(size + swaps));
                g->actions++;
                if (k < size) {
                    bid[p] = h->all[k];
                    hand_remove(h, bid[p]);
                    break;
                }
                swap_card(g, h, h->all[k - size], &rng);
            }
            key[p] = (COIN[bid[p]] + (helper[p] == HENRI ? 2 : 0)) * 16 + (HELPERS - helper[p]); /* MC-17 */
        }
        for (p = 0; p < n; p++) { /* each seat's place: the stronger bids, counted without branches */
            int place = 0;
            for (q = 0; q < n; q++)
                place += key[q] > key[p];
            order[place] = p;
        }
        for (i = 0; i < n; i++) { /* MC-9: two display cards each, then the bid card goes in */
            hand_t *h;
            int picks = g->display_n < 2 ? g->display_n : 2;
            p = order[i];
            h = &g->hand[p];
            while (picks > 0) {
                int swaps = helper[p] == ETIENNE && !g->etienne_used ? h->size : 0;
                int k = (int)lim_fast_below(&rng, (uint32_t)(g->display_n + swaps));
                g->actions++;
                if (k < g->display_n) {
                    hand_add(h, g->display[k]);
                    g->display[k] = g->display[--g->display_n];
                    picks--;
                } else {
                    swap_card(g, h, h->all[k - g->display_n], &rng);
                }
            }
            g->display[g->display_n++] = (uint8_t)bid[p];
        }
        for (i = 0; i < HELPERS; i++) /* MC-10: the combination steps by helper rank */
            seat_of[i] = -1;
        for (p = 0; p < n; p++)
            seat_of[helper[p]] = p;
        /* one copy of the step per helper, in rank order (the set of helpers in play changes
         * by one a round: the tests are well predicted, unlike a jump through a table) */
#define STEP(hh) if (seat_of[hh] >= 0) combine_step(g, &g->hand[seat_of[hh]], seat_of[hh], hh, &rng)
        STEP(ETIENNE);
        STEP(HENRI);
        STEP(MATHIEU);
        STEP(MAURICE);
        STEP(LILLY);
        STEP(AMELIE);
        STEP(CLAUDE);
#undef STEP
        for (p = 0; p < n; p++)
            best = g->score[p] > best ? g->score[p] : best;
        if (best >= TARGET || round >= ROUNDS) /* MC-24; max_turns */
            break;
        first = helper[0]; /* MC-15 */
        last = helper[n - 1];
        for (p = n - 1; p >= 2; p--)
            helper[p] = helper[p - 1];
        helper[0] = last;
        helper[1] = row[0];
        for (i = 0; i + 1 < row_n; i++)
            row[i] = row[i + 1];
        row[row_n - 1] = first;
        for (i = 0; i < n && (c = draw(g, &rng)) >= 0; i++) /* MC-5, MC-6 */
            g->display[g->display_n++] = (uint8_t)c;
    }
    *rng_state = rng;
}

#ifdef LIM_CHECK_COMBOS
/* Check mode (built with -DLIM_CHECK_COMBOS, used by the tests): each line of stdin is
 * "HELPER CARD CARD ..." (a hand of seat 0); the answer line is the number of combination
 * outcomes the player counts, then each outcome it finds for r = 0, 1, ..., as
 * "LAID:KEPT" with the card ids joined by commas, ascending. */
int main(void) {
    char line[512];
    fill_cards();
    fill_outcomes();
    check_forms();
    fill_indices();
    while (fgets(line, sizeof line, stdin)) {
        hand_t h;
        int groups[MAXG], helper, total, r, i, j, t;
        char *at = line, *end;
        memset(&h, 0, sizeof h);
        helper = (int)strtol(at, &end, 10);
        for (at = end;; at = end) {
            long c = strtol(at, &end, 10);
            if (end == at)
                break;
            hand_add(&h, (int)c);
        }
        total = count_groups(&h, helper, groups);
        printf("%d", total);
        for (r = 0; r < total; r++) {
            combo_t o;
            int card[4], kept[4];
            find_combo(&h, helper, r, groups, &o);
            for (i = 0; i < o.k; i++) {
                card[i] = o.card[i];
                kept[i] = o.keep >> i & 1;
            }
            for (i = 0; i < o.k; i++)
                for (j = i + 1; j < o.k; j++)
                    if (card[j] < card[i]) {
                        t = card[i], card[i] = card[j], card[j] = t;
                        t = kept[i], kept[i] = kept[j], kept[j] = t;
                    }
            printf(" ");
            for (i = 0; i < o.k; i++)
                printf(i ? ",%d" : "%d", card[i]);
            printf(":");
            for (i = 0, t = 0; i < o.k; i++)
                if (kept[i])
                    printf(t++ ? ",%d" : "%d", card[i]);
        }
        printf("\n");
        fflush(stdout);
    }
    return 0;
}
#else
int main(int argc, char **argv) {
    lim_args a;
    lim_stats st;
    lim_fast rng;
    game_t g;
    long long i;
    double t0, c0;
    if (!lim_parse(argc, argv, "maus_au_chocolat", 2, 6, &a))
        return 2;
    fill_cards();
    fill_outcomes();
    check_forms();
    fill_indices();
    memset(&st, 0, sizeof st);
    rng = lim_fast_seed(a.seed, 3);
    t0 = lim_now();
    c0 = lim_cpu();
    for (i = 0; i < a.games; i++) {
        play(&g, a.players, &rng);
        lim_add(&st, g.actions, g.score[0]);
    }
    lim_report("maus_au_chocolat", &a, &st, lim_now() - t0, lim_cpu() - c0);
    return 0;
}
#endif

/* mousehole: a plain-C uniform-random player of M (rules M-1 .. M-21 of docs/games/m.md,
 * DEFAULT tables), the yardstick of `mousehole bench`.
 *
 *     ./m PLAYERS GAMES SEED      -> one line of JSON (limits.h)
 *
 * The action model is the one of mousehole.simulate: every decision draws one legal action
 * uniformly. In a turn the legal actions are each (hand card, cell) where the card fits
 * (M-6, M-7), the pass, and with a chip and a non-empty pile one exchange per hand card
 * (M-9); a row choice is one of the two rows (M-12); a take is one of the cards of the
 * scoring row that may be taken (M-13). A game is counted in actions, as the engine does.
 *
 * The table lives in an 8 x 8 window of 64-bit boards (bit 8 r + c) with the cards in rows
 * and columns 1..6: the top row and the left column holding a card are row 1 and column 1,
 * so shifts by one cell never wrap. One board per colour, value and symbol, and the card on
 * each cell. A card is its attributes packed in a number (colour | value << 3 | symbol << 6),
 * which index the boards directly; an empty hand slot holds a card whose attributes index
 * boards that stay empty, so it fits nowhere and the four slots are handled without tests.
 *
 * One game is one function whose state (and generator) are locals, with the turn, the row
 * choice and the takes written out in order rather than dispatched on a phase: the compiler
 * keeps the hot values in registers. The legal cells of a card are one expression over the
 * boards; the drawn action is located with byte-wise bit counts (limits.h) instead of loops.
 * Before each draw the next seat's cards are set against the table (`bad`, kept up to date
 * through the turn), so that its masks do not wait for the boards once the draw's branch,
 * a coin flip to the predictor, resolves.
 */
#include "limits.h"

enum { MAXP = 6, HAND = 4, NCARDS = 90, CHIPS = 6, MAX_ACTIONS = 2000 };

/* a card: colour 0..4, value class 0..4 (0, 10, 20, 30, 40), symbol 0..3 or 4 (none) */
#define COLOUR(x) ((x) & 7)
#define VALUE(x) (((x) >> 3) & 7)
#define SYMBOL(x) ((x) >> 6)
/* boards: colour[5], value[5] and symbol[4] are never written (they stay empty); a card
 * without a symbol writes its symbol bit into the spare symbol[5] */
#define SYMBOL_W(x) (SYMBOL(x) | (SYMBOL(x) >> 2))
enum { NONE_CARD = 5 | 5 << 3 | 4 << 6 }; /* the empty hand slot */

typedef uint16_t card_t;
static card_t DECK[NCARDS];
static uint16_t ATTR[NONE_CARD + 1]; /* one bit per colour, value and symbol (M-12: shared traits) */

static void fill_cards(void) { /* M-1: per colour two 0s, then each value with each symbol */
    int c, v, s, n = 0;
    for (c = 0; c < 5; c++) {
        for (s = 0; s < 2; s++)
            DECK[n++] = (card_t)(c | 4 << 6);
        for (v = 1; v <= 4; v++)
            for (s = 0; s < 4; s++)
                DECK[n++] = (card_t)(c | v << 3 | s << 6);
    }
    for (n = 0; n < NCARDS; n++) {
        int x = DECK[n];
        ATTR[x] = (uint16_t)(1u << COLOUR(x) | 1u << (5 + VALUE(x)) | (SYMBOL(x) < 4 ? 1u << (10 + SYMBOL(x)) : 0));
    }
}

/* ---- M-13(b): may the card on a cell be taken without splitting the table? ---------------- */

/* For the 3 x 3 block around a card (bit 3 i + j: the cell (i - 1, j - 1) from it), the
 * groups of its neighbours that stay linked around it: each maximal arc of cards on the ring
 * N, NE, E, SE, S, SW, W, NW (a cell of the ring is next to the one before it) that holds an
 * orthogonal neighbour. With at most one group the take is safe; otherwise the groups are
 * grown on the table at once, as boards relative to cell - 9 (bit 8 i + j). */
static uint8_t NGROUPS[512];
static uint32_t GROUP[512][4];

static void fill_groups(void) {
    static const int RING[8] = {1, 2, 5, 8, 7, 6, 3, 0}; /* block bits, in ring order */
    int b, i, k;
    for (b = 0; b < 512; b++) {
        int start = -1, n = 0;
        for (i = 0; i < 8 && start < 0; i++)
            if (!(b >> RING[i] & 1))
                start = i;
        if (start < 0) { /* the whole ring: one group */
            NGROUPS[b] = 1;
            continue;
        }
        for (i = 1; i <= 8;) { /* arcs, from the first hole on */
            uint32_t arc = 0;
            int orth = 0;
            for (; i <= 8; i++) {
                k = RING[(start + i) & 7];
                if (!(b >> k & 1))
                    break;
                arc |= 1u << (8 * (k / 3) + k % 3);
                orth |= k & 1; /* N, W, E, S are the odd block bits */
            }
            if (arc && orth)
                GROUP[b][n++] = arc;
            i++;
        }
        NGROUPS[b] = (uint8_t)n;
    }
}

LIM_INLINE uint64_t nbrs(uint64_t b) { return (b << 1) | (b >> 1) | (b << 8) | (b >> 8); }

LIM_INLINE int block(uint64_t occ, int cell) {
    uint64_t x = occ >> (cell - 9);
    return (int)((x & 7) | (x >> 5 & 0x38) | (x >> 10 & 0x1C0));
}

/* two or more groups: grow them all; two that touch merge; one that stops growing is a whole
 * part of the table, split from the others */
static int groups_join(uint64_t occ, int cell, int b) {
    uint64_t rest = occ & ~(1ULL << cell), f[4], g, h;
    int n = NGROUPS[b], i, j;
    for (i = 0; i < n; i++)
        f[i] = (uint64_t)GROUP[b][i] << (cell - 9);
    if (n == 2) { /* the usual case, without the bookkeeping */
        for (;;) {
            g = (f[0] | nbrs(f[0])) & rest;
            h = (f[1] | nbrs(f[1])) & rest;
            if (g & h)
                return 1;
            if (g == f[0] || h == f[1])
                return 0;
            f[0] = g;
            f[1] = h;
        }
    }
    for (;;) {
        for (i = 0; i < n; i++) {
            g = (f[i] | nbrs(f[i])) & rest;
            if (g == f[i])
                return 0;
            f[i] = g;
        }
        for (i = 0; i < n; i++)
            for (j = i + 1; j < n; j++)
                if (f[i] & f[j]) {
                    f[i] |= f[j];
                    f[j--] = f[--n];
                }
        if (n == 1)
            return 1;
    }
}

/* The cards of board o with two groups of neighbours or more, all at once: around each cell
 * the ring N, NE, E, SE, S, SW, W, NW as eight shifted boards (a corner counts only next to a
 * card of its two sides, which joins it to a group), and the cells where an empty place of
 * the ring is followed by a card at least twice. (Cards stay in rows and columns 1..6, so a
 * shift by one column never brings in a card from the next row.) */
LIM_INLINE uint64_t crowded(uint64_t o) {
    uint64_t n = o << 8, s = o >> 8, w = o << 1, e = o >> 1;
    uint64_t ne = o << 7 & (n | e), se = o >> 9 & (s | e), sw = o >> 7 & (s | w), nw = o << 9 & (n | w);
    uint64_t once = 0, twice = 0, start;
#define RING_STEP(cur, prev) (start = (cur) & ~(prev), twice |= once & start, once |= start)
    RING_STEP(n, nw);
    RING_STEP(ne, n);
    RING_STEP(e, ne);
    RING_STEP(se, e);
    RING_STEP(s, se);
    RING_STEP(sw, s);
    RING_STEP(w, sw);
    RING_STEP(nw, w);
#undef RING_STEP
    return twice;
}

LIM_INLINE uint64_t takeable(uint64_t occ, uint64_t row) { /* M-13 (a), (b) */
    uint64_t hard, out;
    if ((row & (row - 1)) == 0)
        return 0;
    hard = crowded(occ) & row;
    out = row & ~hard;
    while (hard) {
        int cell = lim_ctz64(hard);
        hard &= hard - 1;
        out |= (uint64_t)groups_join(occ, cell, block(occ, cell)) << cell;
    }
    return out;
}

/* ---- the table ---------------------------------------------------------------------------- */

typedef struct {
    uint64_t occ, front, colour[6], value[6], symbol[6];
    card_t at[82]; /* the card on cell c is at[9 + c] (room for a shift either way) */
} table_t;

static const uint64_t ROW0 = 0xFFULL, ROW1 = 0xFF00ULL, ROW6 = 0xFFULL << 48, ROW7 = 0xFFULL << 56;
static const uint64_t COL0 = 0x0101010101010101ULL, COL1 = COL0 << 1, COL6 = COL0 << 6, COL7 = COL0 << 7;

LIM_INLINE void set_front(table_t *t) { /* M-7: a sixth row (column) closes the two outer ones */
    uint64_t o = t->occ;
    uint64_t closed = ((0 - (uint64_t)((o & ROW6) != 0)) & (ROW0 | ROW7)) | ((0 - (uint64_t)((o & COL6) != 0)) & (COL0 | COL7));
    t->front = nbrs(o) & ~o & ~closed;
}

/* M-6: the cards that share something with card x, and the free cells where it fits (every
 * neighbour shares something with it) */
LIM_INLINE uint64_t same(const table_t *t, int x) {
    return t->colour[COLOUR(x)] | t->value[VALUE(x)] | t->symbol[SYMBOL(x)];
}

LIM_INLINE uint64_t fits(const table_t *t, int x) { return t->front & ~nbrs(t->occ & ~same(t, x)); }

LIM_INLINE void put(table_t *t, int cell, int x) {
    uint64_t bit = 1ULL << cell;
    t->occ |= bit;
    t->colour[COLOUR(x)] |= bit;
    t->value[VALUE(x)] |= bit;
    t->symbol[SYMBOL_W(x)] |= bit;
    t->at[9 + cell] = (card_t)x;
}

LIM_INLINE int lift(table_t *t, int cell) {
    int x = t->at[9 + cell];
    uint64_t keep = ~(1ULL << cell);
    t->occ &= keep;
    t->colour[COLOUR(x)] &= keep;
    t->value[VALUE(x)] &= keep;
    t->symbol[SYMBOL_W(x)] &= keep;
    return x;
}

LIM_INLINE uint64_t move(uint64_t b, int sh) { return sh > 0 ? b << sh : b >> -sh; }

static void shift(table_t *t, int sh) { /* every card by sh cells: +-1, +-8 or +-9 */
    int i;
    t->occ = move(t->occ, sh);
    for (i = 0; i < 5; i++) {
        t->colour[i] = move(t->colour[i], sh);
        t->value[i] = move(t->value[i], sh);
    }
    for (i = 0; i < 4; i++)
        t->symbol[i] = move(t->symbol[i], sh);
    memmove(t->at + 9 + sh, t->at + 9, 64 * sizeof t->at[0]);
}

/* M-12: the run through bit p of the line `bits` (its cells as bits of a byte), `step` apart
 * on the board, if it has five cards or more and card x shares two traits with a neighbour
 * on it; the run as a board, else 0 */
LIM_INLINE uint64_t run(const table_t *t, uint64_t bits, int p, int cell, int step, int x) {
    int up = lim_ctz64(~(bits >> p));              /* cards from p on, p included */
    int down = LIM_CLZ64(~(bits << (63 - p)));     /* cards from p back, p included */
    int len = up + down - 1, first = cell - step * (down - 1);
    unsigned a = ATTR[x], m1 = a & ATTR[t->at[9 + cell - step]], m2 = a & ATTR[t->at[9 + cell + step]];
    /* no branches: whether a run forms is a coin flip to the predictor */
    int ok = (len >= 5) & (((down > 1) & ((m1 & (m1 - 1)) != 0)) | ((up > 1) & ((m2 & (m2 - 1)) != 0)));
    uint64_t cells = step == 1 ? (1ULL << len) - 1 : COL0 >> (8 * (8 - len));
    return (cells << first) & (0 - (uint64_t)ok);
}

/* ---- one game ------------------------------------------------------------------------------- */

typedef struct {
    int actions, score0;
} result_t;

static result_t play(int n, lim_fast *rng_state) {
    static const int START[5] = {8 + 1, 8 + 3, 16 + 1, 16 + 2, 16 + 3}; /* M-4, window cells */
    lim_fast rng = *rng_state;
    table_t t;
    card_t hand[MAXP][HAND], pile[128], deck[NCARDS]; /* pile: a ring, bottom at pb, top at pb + pn - 1 */
    int hand_n[MAXP], chips[MAXP], taken[MAXP][5], left[MAXP], right[MAXP];
    int pb = 0, pn = 30 + 10 * n, p, q, i, passes = 0, actions = 0;
    uint64_t mask[HAND], bad[HAND];
    result_t res;

    memset(&t, 0, sizeof t);
    memset(taken, 0, sizeof taken);
    memcpy(deck, DECK, sizeof deck);
    for (i = 0; i < pn; i++) { /* M-3: 30 + 10 n cards in play: only they need shuffling */
        int j = i + (int)lim_fast_below(&rng, (uint32_t)(NCARDS - i));
        pile[i] = deck[j];
        deck[j] = deck[i];
    }
    for (i = 0; i < 5; i++)
        put(&t, START[i], pile[--pn]);
    for (p = 0; p < n; p++) { /* M-5, M-2 */
        for (i = 0; i < HAND; i++)
            hand[p][i] = pile[--pn];
        hand_n[p] = HAND;
        chips[p] = CHIPS;
        left[p] = p + 1 == n ? 0 : p + 1;
        right[p] = p == 0 ? n - 1 : p - 1;
    }
    set_front(&t);
    p = 0;
    for (i = 0; i < HAND; i++)
        bad[i] = t.occ & ~same(&t, hand[0][i]);
    goto check; /* M-17 before the first turn */

    for (;;) {
        card_t *h = hand[p], *hq = hand[left[p]];
        uint64_t pre0 = lim_bytes(mask[0]) * LIM_ONES, pre1 = lim_bytes(mask[1]) * LIM_ONES;
        uint64_t pre2 = lim_bytes(mask[2]) * LIM_ONES, pre3 = lim_bytes(mask[3]) * LIM_ONES;
        uint32_t c1 = (uint32_t)(pre0 >> 56), c2 = c1 + (uint32_t)(pre1 >> 56), c3 = c2 + (uint32_t)(pre2 >> 56);
        uint32_t total = c3 + (uint32_t)(pre3 >> 56), k, slot;
        uint32_t start[HAND];
        uint64_t pres[HAND], hl, vl, row, m;
        int cell, x, need, pay, sh, r, c;

        /* the next seat's cards against the table as it is: the cards each shares nothing
         * with, next to which it cannot go (M-6). A pass leaves them; a placement, a take or a
         * move of the window updates them by a few operations, so that the next seat's masks
         * do not wait for the boards (nor for the loads of its hand) after this turn */
        for (i = 0; i < HAND; i++)
            bad[i] = t.occ & ~same(&t, hq[i]);
        k = lim_fast_below(&rng, total + 1 + ((uint32_t)hand_n[p] & (0u - (uint32_t)((chips[p] > 0) & (pn > 0)))));
        actions++;
        if (k >= total) { /* M-9: a pass, with an exchange of slot k - total - 1 */
            if (chips[p] > 0) {
                chips[p]--;
                chips[right[p]]++;
                if (k > total) {
                    pb = (pb - 1) & 127;
                    pile[pb] = h[k - total - 1];
                    h[k - total - 1] = pile[(pb + pn) & 127]; /* the top card */
                }
            }
            passes = pn == 0 ? passes + 1 : 0; /* M-18 */
            if (passes >= n || actions >= MAX_ACTIONS)
                break;
            p = left[p]; /* the table did not change: no M-17 test */
            for (i = 0; i < HAND; i++)
                mask[i] = t.front & ~nbrs(bad[i]);
            continue;
        }

        /* M-6: place the card of slot `slot` on the k-th legal cell of that card */
        slot = (k >= c1) + (k >= c2) + (k >= c3); /* compares and table reads, no branches */
        start[0] = 0, start[1] = c1, start[2] = c2, start[3] = c3;
        pres[0] = pre0, pres[1] = pre1, pres[2] = pre2, pres[3] = pre3;
        cell = lim_select_pre(mask[slot], pres[slot], k - start[slot]);
        x = h[slot];
        h[slot] = h[--hand_n[p]];
        h[hand_n[p]] = NONE_CARD;
        passes = 0;
        m = t.occ; /* M-8: k neighbours cost k - 1 chips, from the right, never from the placer */
        need = (int)(m >> (cell + 1) & 1) + (int)(m >> (cell - 1) & 1) + (int)(m >> (cell + 8) & 1) +
               (cell >= 8 ? (int)(m >> (cell - 8) & 1) : 0) - 1;
        q = right[p]; /* the right neighbour pays without a test (need may be 0) ... */
        pay = need < chips[q] ? need : chips[q];
        chips[q] -= pay;
        chips[p] += pay;
        need -= pay;
        for (q = right[q]; need > 0 && q != p; q = right[q]) { /* ... the others seldom */
            pay = need < chips[q] ? need : chips[q];
            chips[q] -= pay;
            chips[p] += pay;
            need -= pay;
        }
        sh = (cell < 8 ? 8 : 0) + ((cell & 7) == 0 ? 1 : 0); /* on row or column 0: move the window */
        if (sh) {
            shift(&t, sh);
            for (i = 0; i < HAND; i++)
                bad[i] <<= sh;
            cell += sh;
        }
        put(&t, cell, x);
        for (i = 0; i < HAND; i++) /* the card, for the next seat's cards that share nothing with it */
            bad[i] |= (1ULL << cell) & (0 - (uint64_t)((ATTR[x] & ATTR[hq[i]]) == 0));

        r = cell >> 3; /* M-12 */
        c = cell & 7;
        hl = run(&t, t.occ >> (8 * r) & 0xFF, c, cell, 1, x);
        vl = run(&t, ((t.occ >> c) & COL0) * 0x0102040810204080ULL >> 56, r, cell, 8, x);
        row = hl | vl;
        if (hl && vl) { /* the placer chooses the row */
            if (actions >= MAX_ACTIONS)
                break;
            row = lim_fast_below(&rng, 2) ? vl : hl;
            actions++;
        }
        if (row) { /* M-13, M-14: takes, the placer first, then to the right */
            uint64_t tm = takeable(t.occ, row);
            for (q = p; tm; q = right[q]) {
                uint64_t tp = lim_bytes(tm) * LIM_ONES;
                int at, y;
                if (actions >= MAX_ACTIONS)
                    goto over;
                at = lim_select_pre(tm, tp, lim_fast_below(&rng, (uint32_t)(tp >> 56)));
                y = lift(&t, at);
                for (i = 0; i < HAND; i++)
                    bad[i] &= ~(1ULL << at);
                taken[q][COLOUR(y)] += 10 * VALUE(y); /* M-15 */
                row &= ~(1ULL << at);
                actions++;
                sh = (t.occ & ROW1 ? 0 : -8) + (t.occ & COL1 ? 0 : -1);
                if (sh) {
                    shift(&t, sh);
                    row = move(row, sh);
                    for (i = 0; i < HAND; i++)
                        bad[i] = move(bad[i], sh);
                }
                tm = takeable(t.occ, row);
            }
            if (pn == 0) /* M-16 */
                break;
        }
        set_front(&t);
        while (hand_n[p] < HAND && pn > 0) /* M-10 */
            h[hand_n[p]++] = pile[(pb + --pn) & 127];
        if (actions >= MAX_ACTIONS)
            break;
        p = left[p]; /* M-11 */

    check: /* M-17: the game goes on while some card in a hand or the pile fits; the masks of
            * the seat to move first (they serve its decision) */
        if (!t.front)
            break;
        for (i = 0; i < HAND; i++)
            mask[i] = t.front & ~nbrs(bad[i]);
        if (mask[0] | mask[1] | mask[2] | mask[3])
            continue;
        for (q = 0; q < n; q++)
            for (i = 0; i < hand_n[q]; i++)
                if (q != p && fits(&t, hand[q][i]))
                    goto go_on;
        for (i = 0; i < pn; i++)
            if (fits(&t, pile[(pb + i) & 127]))
                goto go_on;
        break;
    go_on:;
    }
over:
    {
        int b1 = 0, b2 = 0, sum = 0, v, j; /* M-20 */
        for (j = 0; j < 5; j++) {
            v = taken[0][j];
            sum += v;
            if (v > b1) {
                b2 = b1;
                b1 = v;
            } else if (v > b2) {
                b2 = v;
            }
        }
        res.score0 = 10 * chips[0] + 2 * (b1 + b2) - sum;
    }
    res.actions = actions;
    *rng_state = rng;
    return res;
}

int main(int argc, char **argv) {
    lim_args a;
    lim_stats st;
    lim_fast rng;
    long long i;
    double t0, c0;
    if (!lim_parse(argc, argv, "m", 2, 6, &a))
        return 2;
    fill_cards();
    fill_groups();
    lim_fill_select();
    memset(&st, 0, sizeof st);
    rng = lim_fast_seed(a.seed, 2);
    t0 = lim_now();
    c0 = lim_cpu();
    for (i = 0; i < a.games; i++) {
        result_t r = play(a.players, &rng);
        lim_add(&st, r.actions, r.score0);
    }
    lim_report("m", &a, &st, lim_now() - t0, lim_cpu() - c0);
    return 0;
}

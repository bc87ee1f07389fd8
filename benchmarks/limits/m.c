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
 * so shifts by one cell never wrap. One board per colour, value and symbol; no card ids on
 * the table (a card's attributes are where its bit is).
 */
#include "limits.h"

enum { MAXP = 6, HAND = 4, NCARDS = 90, CHIPS = 6, MAX_ACTIONS = 2000, NO_SYMBOL = 4 };

/* a card: colour 0..4, value class 0..4 (0, 10, 20, 30, 40), symbol 0..3 or NO_SYMBOL */
static uint8_t COLOUR[NCARDS], VALUE[NCARDS], SYMBOL[NCARDS];

static void fill_cards(void) { /* M-1: per colour two 0s, then each value with each symbol */
    int c, v, s, id = 0;
    for (c = 0; c < 5; c++) {
        for (s = 0; s < 2; s++, id++) {
            COLOUR[id] = (uint8_t)c;
            VALUE[id] = 0;
            SYMBOL[id] = NO_SYMBOL;
        }
        for (v = 1; v <= 4; v++)
            for (s = 0; s < 4; s++, id++) {
                COLOUR[id] = (uint8_t)c;
                VALUE[id] = (uint8_t)v;
                SYMBOL[id] = (uint8_t)s;
            }
    }
}

enum { PLAY, CHOOSE, TAKE, OVER };

typedef struct {
    int n;
    uint64_t occ, colour[5], value[5], symbol[5]; /* symbol[NO_SYMBOL] stays empty */
    uint64_t front;           /* free cells next to a card, inside the 6 x 6 limit (M-7) */
    uint64_t fit[HAND];       /* PLAY: where each card of the hand to move fits */
    uint64_t srow, tmask;      /* the scoring row; TAKE: the cards of it that may be taken */
    uint64_t hrun, vrun;       /* CHOOSE: the two runs */
    uint8_t hand[MAXP][HAND];
    int hand_n[MAXP];
    uint8_t pile[128];        /* a ring: bottom at pile_b, top at pile_b + pile_n - 1 */
    int pile_b, pile_n;
    int chips[MAXP];
    int taken[MAXP][5];       /* points taken, per colour */
    int phase, seat, placer, passes, actions;
} m_t;

static const uint64_t ROW0 = 0xFFULL, ROW1 = 0xFF00ULL, ROW6 = 0xFFULL << 48, ROW7 = 0xFFULL << 56;
static const uint64_t COL0 = 0x0101010101010101ULL, COL1 = COL0 << 1, COL6 = COL0 << 6, COL7 = COL0 << 7;

static inline uint64_t nbrs(uint64_t b) { return (b << 1) | (b >> 1) | (b << 8) | (b >> 8); }

static inline void set_front(m_t *g) { /* M-7: a sixth row (column) closes the two outer ones */
    uint64_t area = ~0ULL;
    if (g->occ & ROW6) area &= ~(ROW0 | ROW7);
    if (g->occ & COL6) area &= ~(COL0 | COL7);
    g->front = nbrs(g->occ) & ~g->occ & area;
}

/* M-6: the free cells where card x fits (every neighbour shares something with it) */
static inline uint64_t fits(const m_t *g, int x) {
    uint64_t same = g->colour[COLOUR[x]] | g->value[VALUE[x]] | g->symbol[SYMBOL[x]];
    return g->front & ~nbrs(g->occ & ~same);
}

static inline int in(uint64_t b, int cell) { return (int)(b >> cell & 1); }

/* what card x shares with the card on `cell` (M-12) */
static inline int shared(const m_t *g, int x, int cell) {
    return in(g->colour[COLOUR[x]], cell) + in(g->value[VALUE[x]], cell) + in(g->symbol[SYMBOL[x]], cell);
}

static void shift(m_t *g, int rows, int cols) { /* move every card by (rows, cols), +-1 or 0 */
    int sh = 8 * rows + cols, i;
    uint64_t *boards[17];
    int nb = 0;
    boards[nb++] = &g->occ;
    boards[nb++] = &g->srow;
    for (i = 0; i < 5; i++) {
        boards[nb++] = &g->colour[i];
        boards[nb++] = &g->value[i];
    }
    for (i = 0; i < 4; i++)
        boards[nb++] = &g->symbol[i];
    for (i = 0; i < nb; i++)
        *boards[i] = sh > 0 ? *boards[i] << sh : *boards[i] >> -sh;
}

static inline void put(m_t *g, int cell, int x) {
    uint64_t bit = 1ULL << cell;
    g->occ |= bit;
    g->colour[COLOUR[x]] |= bit;
    g->value[VALUE[x]] |= bit;
    g->symbol[SYMBOL[x]] |= SYMBOL[x] == NO_SYMBOL ? 0 : bit;
}

static inline int pop_pile(m_t *g) { return g->pile[(g->pile_b + --g->pile_n) & 127]; }

static inline int hand_fits(m_t *g, int p) { /* the fit masks of seat p's hand; any fit? */
    uint64_t any = 0;
    int i;
    for (i = 0; i < g->hand_n[p]; i++)
        any |= g->fit[i] = fits(g, g->hand[p][i]);
    return any != 0;
}

/* M-17 at the start of seat p's turn: the game goes on while some card in a hand or in the
 * pile fits; seat p's hand first (its masks are those of the coming decision) */
static void start_turn(m_t *g, int p) {
    int q, i;
    g->phase = PLAY;
    g->seat = p;
    if (g->front && hand_fits(g, p))
        return;
    for (q = 0; q < g->n && g->front; q++)
        for (i = 0; i < g->hand_n[q]; i++)
            if (q != p && fits(g, g->hand[q][i]))
                return;
    for (i = 0; i < g->pile_n && g->front; i++)
        if (fits(g, g->pile[(g->pile_b + i) & 127]))
            return;
    g->phase = OVER;
}

static void end_turn(m_t *g) { /* M-10, M-11 */
    int p = g->placer;
    while (g->hand_n[p] < HAND && g->pile_n > 0)
        g->hand[p][g->hand_n[p]++] = (uint8_t)pop_pile(g);
    start_turn(g, p + 1 == g->n ? 0 : p + 1);
}

/* BLOCK_OK[b]: for the 3 x 3 block b around a card (bit 3 i + j is the cell (i - 1, j - 1)
 * from it), 1 when removing the card cannot split the table: it has at most one neighbour,
 * or its neighbours are linked by the ring of cards around it (N, NE, E, SE, S, SW, W, NW:
 * each cell of the ring is next to the one before it) */
static uint8_t BLOCK_OK[512];

static void fill_block(void) {
    static const int RING[8] = {1, 2, 5, 8, 7, 6, 3, 0}; /* block bits, in ring order */
    int b, start, i, k;
    for (b = 0; b < 512; b++) {
        int orth = 0, nb = 0, ok = 0;
        for (i = 0; i < 8; i += 2)
            if (b >> RING[i] & 1) {
                orth |= 1 << i;
                nb++;
            }
        ok = nb <= 1;
        for (start = 0; start < 8 && !ok; start++) { /* an arc of cards from start */
            int arc = 0;
            for (i = 0; i < 8; i++) {
                k = (start + i) & 7;
                if (!(b >> RING[k] & 1))
                    break;
                arc |= 1 << k;
            }
            ok = (orth & ~arc) == 0;
        }
        BLOCK_OK[b] = (uint8_t)ok;
    }
}

/* M-13(b): is the table still one group without the card on `cell`? Its neighbours must stay
 * connected: the 3 x 3 block around it settles most cases; otherwise a flood from one
 * neighbour until it has reached all of them (connected) or stops growing (split). */
static int connected_without(uint64_t occ, int cell) {
    uint64_t x = occ >> (cell - 9), bit, rest, need, f, g;
    if (BLOCK_OK[(x & 7) | (x >> 5 & 0x38) | (x >> 10 & 0x1C0)])
        return 1;
    bit = 1ULL << cell;
    rest = occ & ~bit;
    need = nbrs(bit) & rest;
    f = need & (0 - need); /* the lowest neighbour */
    for (;;) {
        g = (f | nbrs(f)) & rest;
        if ((g & need) == need)
            return 1;
        if (g == f)
            return 0;
        f = g;
    }
}

static inline uint64_t takeable(const m_t *g) { /* M-13 (a), (b) */
    uint64_t bits = g->srow, out = 0;
    if ((bits & (bits - 1)) == 0)
        return 0;
    while (bits) {
        int b = lim_ctz64(bits);
        bits &= bits - 1;
        if (connected_without(g->occ, b))
            out |= 1ULL << b;
    }
    return out;
}

static void go_on_scoring(m_t *g) { /* M-14, M-16 */
    g->tmask = takeable(g);
    if (g->tmask)
        return;
    g->srow = 0;
    if (g->pile_n == 0)
        g->phase = OVER;
    else
        end_turn(g);
}

static void start_scoring(m_t *g, uint64_t run) {
    g->srow = run;
    g->phase = TAKE;
    g->seat = g->placer;
    go_on_scoring(g);
}

/* M-12: the run through `cell` along `step` if it qualifies, else 0 */
static uint64_t line(const m_t *g, int x, int cell, int step) {
    int a = cell, b = cell, len;
    uint64_t run = 0;
    while (in(g->occ, a - step))
        a -= step;
    while (in(g->occ, b + step))
        b += step;
    len = (b - a) / step + 1;
    if (len < 5)
        return 0;
    if (!((a != cell && shared(g, x, cell - step) >= 2) || (b != cell && shared(g, x, cell + step) >= 2)))
        return 0;
    for (; a <= b; a += step)
        run |= 1ULL << a;
    return run;
}

static void place(m_t *g, int p, int slot, int cell) {
    int x = g->hand[p][slot], need, q, k, pay;
    uint64_t nb = nbrs(1ULL << cell) & g->occ;
    g->hand[p][slot] = g->hand[p][--g->hand_n[p]];
    g->passes = 0;
    g->placer = p;
    need = lim_popcount64(nb) - 1; /* M-8: k - 1 chips, from the right, never from the placer */
    for (q = p, k = 1; need > 0 && k < g->n; k++) {
        q = q == 0 ? g->n - 1 : q - 1;
        pay = need < g->chips[q] ? need : g->chips[q];
        g->chips[q] -= pay;
        g->chips[p] += pay;
        need -= pay;
    }
    if (cell < 8 || (cell & 7) == 0) { /* on row or column 0: move the window */
        int dr = cell < 8, dc = (cell & 7) == 0;
        shift(g, dr, dc);
        cell += 8 * dr + dc;
    }
    put(g, cell, x);
    set_front(g);
    /* M-12: only a row (column) with five cards can hold a run of five */
    g->hrun = LIM_POP8[g->occ >> (cell & 56) & 0xFF] >= 5 ? line(g, x, cell, 1) : 0;
    g->vrun = LIM_POP8[((g->occ >> (cell & 7)) & COL0) * 0x0102040810204080ULL >> 56] >= 5 ? line(g, x, cell, 8) : 0;
    if (g->hrun && g->vrun) {
        g->phase = CHOOSE;
        g->seat = p;
    } else if (g->hrun | g->vrun) {
        start_scoring(g, g->hrun | g->vrun);
    } else {
        end_turn(g);
    }
}

static void take(m_t *g, int cell) {
    uint64_t keep = ~(1ULL << cell);
    int c, v, p = g->seat;
    for (c = 0; !in(g->colour[c], cell); c++)
        ;
    for (v = 0; !in(g->value[v], cell); v++)
        ;
    g->taken[p][c] += 10 * v; /* M-15 */
    g->occ &= keep;
    g->srow &= keep;
    g->colour[c] &= keep;
    g->value[v] &= keep;
    for (c = 0; c < 4; c++)
        g->symbol[c] &= keep;
    g->seat = p == 0 ? g->n - 1 : p - 1; /* M-13: then the player to the right */
    if (!(g->occ & ROW1) || !(g->occ & COL1))
        shift(g, -!(g->occ & ROW1), -!(g->occ & COL1));
    set_front(g);
    go_on_scoring(g);
}

static void pass(m_t *g, int p, int slot) { /* M-9, M-18 */
    if (g->chips[p] > 0) {
        g->chips[p]--;
        g->chips[p == 0 ? g->n - 1 : p - 1]++;
        if (slot >= 0) {
            g->pile_b = (g->pile_b - 1) & 127;
            g->pile[g->pile_b] = g->hand[p][slot];
            g->pile_n++;
            g->hand[p][slot] = (uint8_t)pop_pile(g);
        }
    }
    g->passes = g->pile_n == 0 ? g->passes + 1 : 0;
    if (g->passes >= g->n) {
        g->phase = OVER;
        return;
    }
    p = p + 1 == g->n ? 0 : p + 1;
    g->seat = p;
    hand_fits(g, p); /* nothing changed on the table: no M-17 test */
}

static void setup(m_t *g, int n, lim_rng *rng) {
    uint8_t deck[NCARDS];
    static const int START[5] = {8 + 1, 8 + 3, 16 + 1, 16 + 2, 16 + 3}; /* M-4, window cells */
    int i, p;
    memset(g, 0, sizeof *g);
    g->n = n;
    for (i = 0; i < NCARDS; i++)
        deck[i] = (uint8_t)i;
    lim_shuffle(rng, deck, NCARDS); /* M-3: the first 30 + 10 n are in play */
    g->pile_n = 30 + 10 * n;
    memcpy(g->pile, deck, (size_t)g->pile_n);
    for (i = 0; i < 5; i++)
        put(g, START[i], pop_pile(g));
    for (p = 0; p < n; p++) { /* M-5, M-2 */
        for (i = 0; i < HAND; i++)
            g->hand[p][i] = (uint8_t)pop_pile(g);
        g->hand_n[p] = HAND;
        g->chips[p] = CHIPS;
    }
    set_front(g);
    start_turn(g, 0);
}

static int score0(const m_t *g) { /* M-20 */
    int b1 = 0, b2 = 0, total = 0, c, t;
    for (c = 0; c < 5; c++) {
        t = g->taken[0][c];
        total += t;
        if (t > b1) {
            b2 = b1;
            b1 = t;
        } else if (t > b2) {
            b2 = t;
        }
    }
    return 10 * g->chips[0] + 2 * (b1 + b2) - total;
}

static void play(m_t *g, lim_rng *rng) {
    while (g->phase != OVER) {
        if (g->phase == PLAY) {
            int p = g->seat, hn = g->hand_n[p], i, counts[HAND], total = 0;
            uint32_t r;
            for (i = 0; i < hn; i++)
                total += counts[i] = lim_popcount64(g->fit[i]);
            r = lim_below(rng, (uint32_t)(total + 1 + (g->chips[p] > 0 && g->pile_n > 0 ? hn : 0)));
            if ((int)r < total) {
                for (i = 0; (int)r >= counts[i]; i++)
                    r -= (uint32_t)counts[i];
                place(g, p, i, lim_select64(g->fit[i], (int)r));
            } else {
                pass(g, p, (int)r - total - 1);
            }
        } else if (g->phase == TAKE) {
            uint64_t t = g->tmask;
            take(g, lim_select64(t, (int)lim_below(rng, (uint32_t)lim_popcount64(t))));
        } else {
            start_scoring(g, lim_below(rng, 2) ? g->vrun : g->hrun);
        }
        if (++g->actions >= MAX_ACTIONS) /* max_turns */
            g->phase = OVER;
    }
}

int main(int argc, char **argv) {
    lim_args a;
    lim_stats st;
    lim_rng rng;
    m_t g;
    long long i;
    double t0, c0;
    if (!lim_parse(argc, argv, "m", 2, 6, &a))
        return 2;
    fill_cards();
    fill_block();
    memset(&st, 0, sizeof st);
    lim_seed(&rng, a.seed, 2);
    t0 = lim_now();
    c0 = lim_cpu();
    for (i = 0; i < a.games; i++) {
        setup(&g, a.players, &rng);
        play(&g, &rng);
        lim_add(&st, g.actions, score0(&g));
    }
    lim_report("m", &a, &st, lim_now() - t0, lim_cpu() - c0);
    return 0;
}

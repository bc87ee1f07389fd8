/* mousehole: a plain-C uniform-random player of Cheese Rescue (rules CR-1 .. CR-13 of
 * docs/games/cheese_rescue.md, DEFAULT tables), the yardstick of `mousehole bench`.
 *
 *     ./cheese_rescue PLAYERS GAMES SEED      -> one line of JSON (limits.h)
 *
 * The action model is the one of mousehole.simulate: at every turn one legal action drawn
 * uniformly, i.e. a card kind the player holds and a legal cell, each of the
 * (kinds held) x (legal cells) pairs equally likely. The table is one 16-bit word per row
 * for the occupied cells and per animal; a cheese cell keeps its owner and value.
 */
#include "limits.h"

enum { DOG = 0, CAT = 1, MOUSE = 2, KINDS = 6, MAXP = 4 };

static const int CHEESE_CARDS[3] = {3, 2, 1};  /* CR-2: a set is 1, 1, 1, 2, 2, 3 (kinds 3, 4, 5) */

typedef struct {
    int n, N, G, start, to_lay; /* players, square side, grid side, start card, cards laid */
    int pile0[3];               /* dogs, cats, mice after the removal (CR-4) */
} cfg_t;

typedef struct {
    /* rows are stored at index r + 1: rows -1 and G are always empty */
    uint16_t occ[17], dog[17], cat[17], mouse[17];
    uint8_t owner[16][16], value[16][16]; /* a cheese: its owner and value */
    int rmin, rmax, cmin, cmax;
    uint8_t hand[MAXP][KINDS];
    uint8_t pile[36];
    int pile_n;
} game_t;

static void setup(const cfg_t *c, game_t *g, lim_rng *rng) {
    int k, i, p, t, m = 0;
    memset(g->occ, 0, sizeof g->occ);
    memset(g->dog, 0, sizeof g->dog);
    memset(g->cat, 0, sizeof g->cat);
    memset(g->mouse, 0, sizeof g->mouse);
    g->rmin = g->cmin = 99;
    g->rmax = g->cmax = -1;
    if (c->start) { /* CR-3, CR-6: the start card on the centre */
        int mid = c->N - 1;
        g->occ[mid + 1] = (uint16_t)(1u << mid);
        g->rmin = g->rmax = g->cmin = g->cmax = mid;
    }
    for (k = 0; k < 3; k++) /* CR-4 */
        for (i = 0; i < c->pile0[k]; i++)
            g->pile[m++] = (uint8_t)k;
    lim_shuffle(rng, g->pile, m);
    g->pile_n = m;
    for (p = 0; p < c->n; p++) { /* CR-5 */
        memset(g->hand[p], 0, KINDS);
        for (k = 0; k < 3; k++)
            g->hand[p][3 + k] = (uint8_t)CHEESE_CARDS[k];
        for (t = 0; t < 2; t++)
            g->hand[p][g->pile[--g->pile_n]]++;
    }
}

/* CR-7, CR-8: the legal cells, one mask per row from *first; returns their number and
 * writes the count of legal cells before each row into before[] */
static int legal_cells(const cfg_t *c, const game_t *g, uint16_t *rows, int *first, int *nrows, int *before) {
    int lo_r, hi_r, lo_c, hi_c, r, total = 0, i = 0;
    uint16_t cols, nb;
    if (g->rmax < 0) { /* 3 players, first card: on the centre */
        *first = c->N - 1;
        *nrows = 1;
        rows[0] = (uint16_t)(1u << (c->N - 1));
        before[0] = 0;
        return 1;
    }
    lo_r = g->rmax - c->N + 1;
    if (lo_r < g->rmin - 1) lo_r = g->rmin - 1;
    if (lo_r < 0) lo_r = 0;
    hi_r = g->rmin + c->N - 1;
    if (hi_r > g->rmax + 1) hi_r = g->rmax + 1;
    if (hi_r > c->G - 1) hi_r = c->G - 1;
    lo_c = g->cmax - c->N + 1;
    if (lo_c < 0) lo_c = 0;
    hi_c = g->cmin + c->N - 1;
    if (hi_c > c->G - 1) hi_c = c->G - 1;
    cols = (uint16_t)(((1u << (hi_c + 1)) - 1) & ~((1u << lo_c) - 1));
    for (r = lo_r; r <= hi_r; r++) {
        uint16_t o = g->occ[r + 1];
        nb = (uint16_t)(((o << 1) | (o >> 1) | g->occ[r] | g->occ[r + 2]) & ~o & cols);
        rows[i] = nb;
        before[i] = total;
        total += lim_popcount16(nb);
        i++;
    }
    *first = lo_r;
    *nrows = i;
    return total;
}

/* CR-7, CR-9: seat p lays a card of `kind` on (r, col) and draws. No branch on the kind
 * (it is random): each board takes the bit under a mask; the owner and value of the cell are
 * written for every card and read only for cheese. */
static const uint8_t KIND_VALUE[KINDS] = {0, 0, 0, 1, 2, 3};

static inline void lay(game_t *g, int p, int kind, int r, int col) {
    uint16_t bit = (uint16_t)(1u << col);
    g->hand[p][kind]--;
    g->occ[r + 1] |= bit;
    g->dog[r + 1] |= bit & (uint16_t)-(kind == DOG);
    g->cat[r + 1] |= bit & (uint16_t)-(kind == CAT);
    g->mouse[r + 1] |= bit & (uint16_t)-(kind == MOUSE);
    g->owner[r][col] = (uint8_t)p;
    g->value[r][col] = KIND_VALUE[kind];
    if (r < g->rmin) g->rmin = r;
    if (r > g->rmax) g->rmax = r;
    if (col < g->cmin) g->cmin = col;
    if (col > g->cmax) g->cmax = col;
    if (g->pile_n > 0)
        g->hand[p][g->pile[--g->pile_n]]++;
}

/* SELECT8[b][j]: the position of the j-th set bit of the byte b */
static uint8_t SELECT8[256][8];

static void fill_select8(void) {
    int b, c, j;
    for (b = 0; b < 256; b++)
        for (c = 0, j = 0; c < 8; c++)
            if (b >> c & 1)
                SELECT8[b][j++] = (uint8_t)c;
}

static inline int select16(uint16_t x, int j) { /* the j-th set bit of x */
    int low = LIM_POP8[x & 0xFF];
    int high = j >= low;
    return SELECT8[high ? x >> 8 : x & 0xFF][j - low * high] + 8 * high;
}

static inline uint16_t beside(const uint16_t *b, int r) { /* cells next to a card of b, row r */
    return (uint16_t)((b[r + 1] << 1) | (b[r + 1] >> 1) | b[r] | b[r + 2]);
}

/* CR-12, CR-13: seat 0's score */
static int score0(const cfg_t *c, const game_t *g) {
    uint16_t cats[17], mice[17];
    int r, s = 0;
    cats[0] = cats[16] = mice[0] = mice[16] = 0;
    for (r = 0; r < c->G; r++)
        cats[r + 1] = g->cat[r + 1] & (uint16_t)~beside(g->dog, r);
    for (r = c->G; r < 15; r++)
        cats[r + 1] = 0;
    for (r = 0; r < c->G; r++)
        mice[r + 1] = g->mouse[r + 1] & (uint16_t)~beside(cats, r);
    for (r = c->G; r < 15; r++)
        mice[r + 1] = 0;
    for (r = 0; r < c->G; r++) {
        uint16_t cheese = g->occ[r + 1] & (uint16_t)~(g->dog[r + 1] | g->cat[r + 1] | g->mouse[r + 1]);
        if (c->start && r == c->N - 1) /* the start card: no cheese, never removed */
            cheese &= (uint16_t)~(1u << (c->N - 1));
        uint16_t left = cheese & (uint16_t)~beside(mice, r);
        while (left) {
            int col = lim_ctz64(left);
            left &= (uint16_t)(left - 1);
            s += g->owner[r][col] == 0 ? g->value[r][col] : 0;
        }
    }
    return s;
}

static int play(const cfg_t *c, game_t *g, lim_rng *rng) {
    uint16_t rows[16];
    int before[16], held[KINDS];
    int laid, p = 0, first, nrows, nc, nk, k, k2, idx, i;
    for (laid = 0; laid < c->to_lay; laid++) { /* CR-11: until the square is full */
        nc = legal_cells(c, g, rows, &first, &nrows, before);
        nk = 0;
        for (k = 0; k < KINDS; k++) { /* the kinds held, without a branch */
            held[nk] = k;
            nk += g->hand[p][k] != 0;
        }
        idx = (int)lim_below(rng, (uint32_t)(nk * nc));
        k = held[idx / nc];
        idx %= nc;
        i = 0;
        for (k2 = 1; k2 < nrows; k2++) /* the row of the idx-th legal cell */
            i += before[k2] <= idx;
        lay(g, p, k, first + i, select16(rows[i], idx - before[i]));
        if (++p == c->n)
            p = 0;
    }
    return laid;
}

int main(int argc, char **argv) {
    lim_args a;
    lim_stats st;
    cfg_t c;
    game_t g;
    lim_rng rng;
    long long i;
    double t0, c0;
    static const int SQUARE[5] = {0, 0, 5, 6, 7};
    static const int REMOVED[5][3] = {{0}, {0}, {3, 6, 9}, {2, 3, 4}, {0, 0, 0}};
    if (!lim_parse(argc, argv, "cheese_rescue", 2, 4, &a))
        return 2;
    fill_select8();
    c.n = a.players;
    c.N = SQUARE[c.n];
    c.G = 2 * c.N - 1;
    c.start = c.n != 3;
    c.to_lay = c.N * c.N - c.start;
    c.pile0[0] = 6 - REMOVED[c.n][0];  /* CR-1: 6 dogs, 12 cats, 18 mice */
    c.pile0[1] = 12 - REMOVED[c.n][1];
    c.pile0[2] = 18 - REMOVED[c.n][2];
    memset(&st, 0, sizeof st);
    memset(&g, 0, sizeof g);
    lim_seed(&rng, a.seed, 1);
    t0 = lim_now();
    c0 = lim_cpu();
    for (i = 0; i < a.games; i++) {
        int len;
        setup(&c, &g, &rng);
        len = play(&c, &g, &rng);
        lim_add(&st, len, score0(&c, &g));
    }
    lim_report("cheese_rescue", &a, &st, lim_now() - t0, lim_cpu() - c0);
    return 0;
}

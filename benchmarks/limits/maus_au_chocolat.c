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
 * The combinations are counted, not listed: a hand keeps its number of cards per candy value
 * and per candy value and colour, and the outcomes of three cards depend only on the helper,
 * the value gaps between them and which of them share a colour (a table built at start-up by
 * the rules below). Summing, over the groups of values that can combine, the number of card
 * triples of each colour pattern times their outcomes gives the count; only the outcome
 * drawn is then found among the cards.
 */
#include "limits.h"

enum { NCARDS = 80, NV = 5, NCOL = 5, MAXP = 6, MAXH = 12, HELPERS = 7, LIMIT = 8, TARGET = 30, ROUNDS = 200 };
enum { ETIENNE, HENRI, MATHIEU, MAURICE, LILLY, AMELIE, CLAUDE }; /* rank 7 - id (MC-2) */
enum { BID, PICK, COMBINE, DISCARD, OVER };

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
 * ascending); KIND[h][d1][d2]: 0 no outcome whatever the colours, 1 the same number for
 * every colour pattern (F[..][AAA]), 2 it depends on the colours. Gaps above 3 never combine. */
static uint8_t F[HELPERS][4][4][5], KIND[HELPERS][4][4];
/* KEPT[h][d1][d2][cp][i]: the i-th of those outcomes (kept cards as bits of the three, in
 * the order value, then id) */
static uint8_t KEPT[HELPERS][4][4][5][4];
/* GAPS[h]: the (d1, d2) with KIND[h][d1][d2] != 0, NGAPS[h] of them */
static uint8_t GAPS[HELPERS][10][2], NGAPS[HELPERS];

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
                int v[3] = {10, 10 + d1, 10 + d1 + d2}, same = 1;
                for (cp = 0; cp < 5; cp++) {
                    int i, nk = outcomes3(h, v, PATTERN_COL[cp], ids, kept);
                    F[h][d1][d2][cp] = (uint8_t)nk;
                    for (i = 0; i < nk; i++)
                        KEPT[h][d1][d2][cp][i] = (uint8_t)kept[i];
                    same &= F[h][d1][d2][cp] == F[h][d1][d2][AAA];
                }
                KIND[h][d1][d2] = (uint8_t)(same ? (F[h][d1][d2][AAA] ? 1 : 0) : 2);
                if (KIND[h][d1][d2]) {
                    GAPS[h][NGAPS[h]][0] = (uint8_t)d1;
                    GAPS[h][NGAPS[h]++][1] = (uint8_t)d2;
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

/* ---- the state --------------------------------------------------------------------------- */

typedef struct {
    int n;
    uint8_t hand[MAXP][MAXH];
    int hand_n[MAXP];
    uint8_t per_value[MAXP][NV];           /* cards per candy value (3..7 as 0..4) */
    uint8_t per_colour[MAXP][NV][NCOL];    /* ... and colour */
    uint8_t pile[NCARDS], discard[NCARDS], display[NCARDS];
    int pile_n, discard_n, display_n;
    int bid[MAXP], score[MAXP], helper[MAXP], row[HELPERS], row_n, order[MAXP];
    int phase, turn, picks_left, etienne_used, round, actions;
} mc_t;

static inline void hand_add(mc_t *g, int p, int c) {
    g->hand[p][g->hand_n[p]++] = (uint8_t)c;
    g->per_value[p][VCLASS[c]]++;
    g->per_colour[p][VCLASS[c]][COLOUR[c]]++;
}

static inline int hand_take(mc_t *g, int p, int i) { /* the card in slot i leaves the hand */
    int c = g->hand[p][i];
    g->hand[p][i] = g->hand[p][--g->hand_n[p]];
    g->per_value[p][VCLASS[c]]--;
    g->per_colour[p][VCLASS[c]][COLOUR[c]]--;
    return c;
}

static int draw(mc_t *g, lim_rng *rng) { /* MC-6: an empty pile takes the discards, shuffled */
    if (g->pile_n == 0) {
        if (g->discard_n == 0)
            return -1;
        memcpy(g->pile, g->discard, (size_t)g->discard_n);
        g->pile_n = g->discard_n;
        g->discard_n = 0;
        lim_shuffle(rng, g->pile, g->pile_n);
    }
    return g->pile[--g->pile_n];
}

static void setup(mc_t *g, int n, lim_rng *rng) {
    uint8_t helpers[HELPERS];
    int i, q;
    memset(g, 0, sizeof *g);
    g->n = n;
    for (i = 0; i < NCARDS; i++)
        g->pile[i] = (uint8_t)i;
    lim_shuffle(rng, g->pile, NCARDS); /* MC-3 */
    g->pile_n = NCARDS;
    for (i = 0; i < 5; i++)
        for (q = 0; q < n; q++)
            hand_add(g, q, g->pile[--g->pile_n]);
    for (i = 0; i <= n; i++)
        g->display[g->display_n++] = g->pile[--g->pile_n];
    for (i = 0; i < HELPERS; i++) /* MC-4 */
        helpers[i] = (uint8_t)i;
    lim_shuffle(rng, helpers, HELPERS);
    for (q = 0; q < n; q++) {
        g->helper[q] = helpers[q];
        g->bid[q] = -1;
    }
    g->row_n = HELPERS - n;
    for (i = 0; i < g->row_n; i++)
        g->row[i] = helpers[n + i];
    g->round = 1;
    g->phase = BID;
}

static void start_pick_turn(mc_t *g) { /* MC-9; then MC-10: combinations by helper rank */
    int q, r, x;
    for (; g->turn < g->n; g->turn++) {
        g->picks_left = g->display_n < 2 ? g->display_n : 2;
        if (g->picks_left)
            return;
        q = g->order[g->turn]; /* nothing to take: the bid card goes straight in */
        g->display[g->display_n++] = (uint8_t)g->bid[q];
        g->bid[q] = -1;
    }
    for (q = 0; q < g->n; q++) {
        for (r = 0, x = 0; x < g->n; x++)
            r += g->helper[x] < g->helper[q];
        g->order[r] = q;
    }
    g->phase = COMBINE;
    g->turn = 0;
}

static void reveal(mc_t *g) { /* MC-7, MC-8, MC-17: strongest bid first, ties by helper rank */
    int key[MAXP], q, x, r;
    for (q = 0; q < g->n; q++)
        key[q] = (COIN[g->bid[q]] + (g->helper[q] == HENRI ? 2 : 0)) * 16 + (HELPERS - g->helper[q]);
    for (q = 0; q < g->n; q++) {
        for (r = 0, x = 0; x < g->n; x++)
            r += key[x] > key[q];
        g->order[r] = q;
    }
    g->phase = PICK;
    g->turn = 0;
    start_pick_turn(g);
}

static void end_step(mc_t *g, lim_rng *rng) { /* the next combiner, or the next round */
    int q, i, best = 0, old[MAXP], c;
    g->phase = COMBINE;
    if (++g->turn < g->n)
        return;
    for (q = 0; q < g->n; q++)
        if (g->score[q] > best)
            best = g->score[q];
    if (best >= TARGET || g->round >= ROUNDS) { /* MC-24; max_turns */
        g->phase = OVER;
        return;
    }
    memcpy(old, g->helper, sizeof old); /* MC-15 */
    g->row[g->row_n] = old[0];
    g->helper[1] = g->row[0];
    for (i = 0; i < g->row_n; i++)
        g->row[i] = g->row[i + 1];
    for (q = 2; q < g->n; q++)
        g->helper[q] = old[q - 1];
    g->helper[0] = old[g->n - 1];
    g->round++;
    g->etienne_used = 0;
    for (i = 0; i < g->n && (c = draw(g, rng)) >= 0; i++) /* MC-5, MC-6 */
        g->display[g->display_n++] = (uint8_t)c;
    g->phase = BID;
    g->turn = 0;
}

static void after_step(mc_t *g, int p, lim_rng *rng) { /* MC-14 */
    if (g->hand_n[p] > LIMIT)
        g->phase = DISCARD;
    else
        end_step(g, rng);
}

static void swap(mc_t *g, int p, int slot, lim_rng *rng) { /* MC-16 */
    g->discard[g->discard_n++] = (uint8_t)hand_take(g, p, slot);
    g->etienne_used = 1;
    hand_add(g, p, draw(g, rng));
}

/* ---- counting and drawing the combinations ----------------------------------------------- */

/* binomial coefficients C(x, 2), C(x, 3), C(x, 4) for x <= MAXH */
static const uint8_t C2[MAXH + 1] = {0, 0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66};
static const uint16_t C3[MAXH + 1] = {0, 0, 0, 1, 4, 10, 20, 35, 56, 84, 120, 165, 220};
static const uint16_t C4[MAXH + 1] = {0, 0, 0, 0, 1, 5, 15, 35, 70, 126, 210, 330, 495};
#define c2(x) ((int)C2[x])
#define c3(x) ((int)C3[x])
#define c4(x) ((int)C4[x])

/* The outcomes of all triples with values a <= b <= c (classes) in seat p's hand. */
static int group_count(const mc_t *g, int p, int h, int a, int b, int c) {
    const uint8_t *N = g->per_value[p];
    const uint8_t(*n)[NCOL] = g->per_colour[p];
    const uint8_t *f = F[h][b - a][c - b];
    int kind = KIND[h][b - a][c - b], k, all, aaa = 0, aab = 0, aba = 0, abb = 0, x = 0, s = 0;
    if (!kind)
        return 0;
    if (a == b && b == c) {
        all = c3(N[a]);
        if (kind == 1 || all == 0)
            return all * f[AAA];
        for (k = 0; k < NCOL; k++) {
            aaa += c3(n[a][k]);
            x += c2(n[a][k]) * (N[a] - n[a][k]);
        }
        return aaa * f[AAA] + x * f[AAB] + (all - aaa - x) * f[ABC];
    }
    if (a == b) {
        all = c2(N[a]) * N[c];
        if (kind == 1 || all == 0)
            return all * f[AAA];
        for (k = 0; k < NCOL; k++) {
            aaa += c2(n[a][k]) * n[c][k];
            s += c2(n[a][k]);
            x += n[c][k] * n[a][k] * (N[a] - n[a][k]);
        }
        aab = s * N[c] - aaa;
        return aaa * f[AAA] + aab * f[AAB] + x * f[ABA] + (all - aaa - aab - x) * f[ABC];
    }
    if (b == c) {
        all = N[a] * c2(N[b]);
        if (kind == 1 || all == 0)
            return all * f[AAA];
        for (k = 0; k < NCOL; k++) {
            aaa += n[a][k] * c2(n[b][k]);
            s += c2(n[b][k]);
            x += n[a][k] * n[b][k] * (N[b] - n[b][k]);
        }
        abb = s * N[a] - aaa;
        return aaa * f[AAA] + abb * f[ABB] + x * f[AAB] + (all - aaa - abb - x) * f[ABC];
    }
    all = N[a] * N[b] * N[c];
    if (kind == 1 || all == 0)
        return all * f[AAA];
    {
        int sab = 0, sac = 0, sbc = 0;
        for (k = 0; k < NCOL; k++) {
            aaa += n[a][k] * n[b][k] * n[c][k];
            sab += n[a][k] * n[b][k];
            sac += n[a][k] * n[c][k];
            sbc += n[b][k] * n[c][k];
        }
        aab = sab * N[c] - aaa;
        aba = sac * N[b] - aaa;
        abb = sbc * N[a] - aaa;
    }
    return aaa * f[AAA] + aab * f[AAB] + aba * f[ABA] + abb * f[ABB] + (all - aaa - aab - aba - abb) * f[ABC];
}

/* MC-10, MC-11, MC-21: the number of combination outcomes of seat p; with a helper that
 * changes a card, the count of each group goes to groups[a][i] (a the lowest value, i the
 * gap of GAPS) for the draw */
static int count_combos(const mc_t *g, int p, int (*groups)[10]) {
    const uint8_t *N = g->per_value[p];
    int h = g->helper[p], a, b, c, i, total = 0;
    if (g->hand_n[p] < 4) /* MC-11: one card must stay */
        return 0;
    if (h == MATHIEU || h == MAURICE || h == CLAUDE) {
        for (a = 0; a < NV; a++) {
            if (!N[a])
                continue;
            for (i = 0; i < NGAPS[h]; i++) { /* only the gaps that can combine with this helper */
                b = a + GAPS[h][i][0];
                c = b + GAPS[h][i][1];
                total += groups[a][i] = c < NV ? group_count(g, p, h, a, b, c) : 0;
            }
        }
    } else { /* one outcome per set or run of three, whatever the colours */
        for (a = 0; a < NV; a++)
            total += c3(N[a]) + (a + 2 < NV ? N[a] * N[a + 1] * N[a + 2] : 0);
    }
    if (h == AMELIE && g->hand_n[p] >= 5) /* MC-21: four equal values, or a run of four */
        for (a = 0; a < NV; a++)
            total += c4(N[a]) + (a + 3 < NV ? N[a] * N[a + 1] * N[a + 2] * N[a + 3] : 0);
    return total;
}

#ifdef LIM_CHECK_COMBOS
static int LAST_CARD[4], LAST_KEPT[4], LAST_K; /* the check mode's record of the last lay */
#endif

/* lay the cards in `slots` (k of them) of seat p, keeping those whose bit is set in `keep` */
static void lay(mc_t *g, int p, const int *slots, int k, int keep) {
    int slot[4], card[4], kept[4], i, j, t;
#ifdef LIM_CHECK_COMBOS
    LAST_K = k;
    for (i = 0; i < k; i++) {
        LAST_CARD[i] = g->hand[p][slots[i]];
        LAST_KEPT[i] = keep >> i & 1;
    }
#endif
    for (i = 0; i < k; i++) {
        slot[i] = slots[i];
        card[i] = g->hand[p][slots[i]];
        kept[i] = keep >> i & 1;
    }
    for (i = 0; i < k; i++) /* highest slot first: hand_take then leaves the others in place */
        for (j = i + 1; j < k; j++)
            if (slot[j] > slot[i]) {
                t = slot[i]; slot[i] = slot[j]; slot[j] = t;
                t = card[i]; card[i] = card[j]; card[j] = t;
                t = kept[i]; kept[i] = kept[j]; kept[j] = t;
            }
    for (i = 0; i < k; i++) {
        hand_take(g, p, slot[i]);
        if (kept[i])
            g->score[p] += CANDY[card[i]]; /* MC-13 */
        else
            g->discard[g->discard_n++] = (uint8_t)card[i]; /* MC-12 */
    }
}

/* the r-th outcome (from 0) of those count_combos counts, laid: the groups of values in a
 * fixed order, then the triples (quadruples) of the group, then the outcomes of the triple */
static void combine(mc_t *g, int p, int r, int (*groups)[10]) {
    int h = g->helper[p], hn = g->hand_n[p], i, j, l, m, x, n, one, a, b, c, gi, k;
    int slot[4];
    uint8_t list[NV][MAXH]; /* the slots of each value */
    int len[NV] = {0, 0, 0, 0, 0};
    const uint8_t *hand = g->hand[p];
    for (j = 0; j < hn; j++) {
        int cls = VCLASS[hand[j]];
        list[cls][len[cls]++] = (uint8_t)j;
    }
    for (a = 0; a < NV; a++) { /* three cards of values a <= b <= c */
        for (gi = 0; gi < NGAPS[h] && len[a]; gi++) {
            const uint8_t *f;
            b = a + GAPS[h][gi][0];
            c = b + GAPS[h][gi][1];
            if (c >= NV)
                continue;
            k = KIND[h][b - a][c - b] == 2 ? groups[a][gi] : group_count(g, p, h, a, b, c);
            if (!k)
                continue;
            if (r >= k) {
                r -= k;
                continue;
            }
            f = F[h][b - a][c - b];
            for (i = 0; i < len[a]; i++)
                for (j = b == a ? i + 1 : 0; j < len[b]; j++)
                    for (l = c == b ? j + 1 : 0; l < len[c]; l++) {
                        int cp;
                        slot[0] = list[a][i];
                        slot[1] = list[b][j];
                        slot[2] = list[c][l];
                        /* (the number of outcomes does not depend on the order of two cards of
                         * equal value: fill_outcomes checks it) */
                        cp = pattern_of(COLOUR[hand[slot[0]]], COLOUR[hand[slot[1]]], COLOUR[hand[slot[2]]]);
                        n = f[cp];
                        if (r < n) { /* this triple: in the order value, then id, for KEPT */
                            if (a == b && hand[slot[1]] < hand[slot[0]])
                                x = slot[0], slot[0] = slot[1], slot[1] = x;
                            if (b == c && hand[slot[2]] < hand[slot[1]]) {
                                x = slot[1], slot[1] = slot[2], slot[2] = x;
                                if (a == b && hand[slot[1]] < hand[slot[0]])
                                    x = slot[0], slot[0] = slot[1], slot[1] = x;
                            }
                            cp = pattern_of(COLOUR[hand[slot[0]]], COLOUR[hand[slot[1]]], COLOUR[hand[slot[2]]]);
                            lay(g, p, slot, 3, KEPT[h][b - a][c - b][cp][r]);
                            return;
                        }
                        r -= n;
                    }
        }
    }
    for (a = 0; a < NV; a++) { /* MC-21: four cards (Amelie) */
        const uint8_t *L = list[a];
        int sets = c4(len[a]), runs = a + 3 < NV ? len[a] * len[a + 1] * len[a + 2] * len[a + 3] : 0;
        if (r >= sets + runs) {
            r -= sets + runs;
            continue;
        }
        if (r < sets) { /* four equal values: the lowest ids kept, two (three in one colour) */
            for (i = 0; i < len[a]; i++)
                for (j = i + 1; j < len[a]; j++)
                    for (l = j + 1; l < len[a]; l++)
                        for (m = l + 1; m < len[a]; m++)
                            if (r-- == 0) {
                                slot[0] = L[i]; slot[1] = L[j]; slot[2] = L[l]; slot[3] = L[m];
                                for (one = 1, x = 1; x < 4; x++)
                                    one &= COLOUR[hand[slot[x]]] == COLOUR[hand[slot[0]]];
                                for (x = 1; x < 4; x++) /* by id */
                                    for (k = x; k > 0 && hand[slot[k]] < hand[slot[k - 1]]; k--)
                                        n = slot[k], slot[k] = slot[k - 1], slot[k - 1] = n;
                                lay(g, p, slot, 4, one ? 7 : 3);
                                return;
                            }
        }
        r -= sets; /* a run of four: the two lowest kept (in one colour the lowest and the highest) */
        for (x = 3; x >= 0; x--) {
            slot[x] = list[a + x][r % len[a + x]];
            r /= len[a + x];
        }
        for (one = 1, x = 1; x < 4; x++)
            one &= COLOUR[hand[slot[x]]] == COLOUR[hand[slot[0]]];
        lay(g, p, slot, 4, one ? 9 : 3);
        return;
    }
    fprintf(stderr, "maus_au_chocolat: combination not found\n");
    exit(3);
}

/* ---- one game ---------------------------------------------------------------------------- */

static void play(mc_t *g, lim_rng *rng) {
    int groups[NV][10];
    while (g->phase != OVER) {
        int p, hn, sw, k;
        g->actions++;
        if (g->phase == BID) {
            for (p = 0; g->bid[p] >= 0; p++)
                ;
            hn = g->hand_n[p];
            sw = g->helper[p] == ETIENNE && !g->etienne_used ? hn : 0;
            k = (int)lim_below(rng, (uint32_t)(hn + sw));
            if (k < hn) { /* MC-7 */
                g->bid[p] = hand_take(g, p, k);
                if (p == g->n - 1)
                    reveal(g);
            } else {
                swap(g, p, k - hn, rng);
            }
        } else if (g->phase == PICK) {
            p = g->order[g->turn];
            sw = g->helper[p] == ETIENNE && !g->etienne_used ? g->hand_n[p] : 0;
            k = (int)lim_below(rng, (uint32_t)(g->display_n + sw));
            if (k < g->display_n) { /* MC-9 */
                hand_add(g, p, g->display[k]);
                g->display[k] = g->display[--g->display_n];
                if (--g->picks_left == 0) {
                    g->display[g->display_n++] = (uint8_t)g->bid[p];
                    g->bid[p] = -1;
                    g->turn++;
                    start_pick_turn(g);
                }
            } else {
                swap(g, p, k - g->display_n, rng);
            }
        } else if (g->phase == COMBINE) {
            p = g->order[g->turn];
            hn = g->hand_n[p];
            sw = g->helper[p] == ETIENNE && !g->etienne_used ? hn : 0;
            k = (int)lim_below(rng, (uint32_t)(sw + 1 + count_combos(g, p, groups)));
            if (k < sw) {
                swap(g, p, k, rng);
            } else if (k == sw) { /* MC-10: decline */
                after_step(g, p, rng);
            } else {
                combine(g, p, k - sw - 1, groups);
                after_step(g, p, rng);
            }
        } else { /* DISCARD, MC-14 */
            p = g->order[g->turn];
            g->discard[g->discard_n++] = (uint8_t)hand_take(g, p, (int)lim_below(rng, (uint32_t)g->hand_n[p]));
            if (g->hand_n[p] <= LIMIT)
                end_step(g, rng);
        }
    }
}

#ifdef LIM_CHECK_COMBOS
/* Check mode (built with -DLIM_CHECK_COMBOS, used by the tests): each line of stdin is
 * "HELPER CARD CARD ..." (a hand of seat 0); the answer line lists every combination outcome
 * the player counts and draws, as "LAID:KEPT" with the card ids joined by commas, ascending. */
int main(void) {
    char line[512];
    fill_cards();
    fill_outcomes();
    while (fgets(line, sizeof line, stdin)) {
        mc_t g, copy;
        int groups[NV][10];
        char *at = line, *end;
        int r, total, i, j, t;
        memset(&g, 0, sizeof g);
        g.n = 2;
        g.helper[0] = (int)strtol(at, &end, 10);
        for (at = end;; at = end) {
            long c = strtol(at, &end, 10);
            if (end == at)
                break;
            hand_add(&g, 0, (int)c);
        }
        total = count_combos(&g, 0, groups);
        printf("%d", total);
        for (r = 0; r < total; r++) {
            int card[4], kept[4];
            copy = g;
            combine(&copy, 0, r, groups);
            for (i = 0; i < LAST_K; i++) {
                card[i] = LAST_CARD[i];
                kept[i] = LAST_KEPT[i];
            }
            for (i = 0; i < LAST_K; i++)
                for (j = i + 1; j < LAST_K; j++)
                    if (card[j] < card[i]) {
                        t = card[i]; card[i] = card[j]; card[j] = t;
                        t = kept[i]; kept[i] = kept[j]; kept[j] = t;
                    }
            printf(" ");
            for (i = 0; i < LAST_K; i++)
                printf(i ? ",%d" : "%d", card[i]);
            printf(":");
            for (i = 0, t = 0; i < LAST_K; i++)
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
    lim_rng rng;
    mc_t g;
    long long i;
    double t0, c0;
    if (!lim_parse(argc, argv, "maus_au_chocolat", 2, 6, &a))
        return 2;
    fill_cards();
    fill_outcomes();
    memset(&st, 0, sizeof st);
    lim_seed(&rng, a.seed, 3);
    t0 = lim_now();
    c0 = lim_cpu();
    for (i = 0; i < a.games; i++) {
        setup(&g, a.players, &rng);
        play(&g, &rng);
        lim_add(&st, g.actions, g.score[0]);
    }
    lim_report("maus_au_chocolat", &a, &st, lim_now() - t0, lim_cpu() - c0);
    return 0;
}
#endif

/* mousehole: what the three C reference loops share (benchmarks/limits/README.md).
 *
 * A small PCG32 generator with an unbiased bounded draw, a monotonic clock, the command
 * line (PLAYERS GAMES SEED) and the JSON report: games, actions, time, mean game length and
 * mean seat-0 score with their standard errors. Plain C99, no dependency.
 */
#ifndef MH_LIMITS_H
#define MH_LIMITS_H

#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(_WIN32)
#include <windows.h>
#endif

/* ---- random numbers: PCG32 (XSH RR output of a 64-bit LCG) -------------------------------- */

typedef struct {
    uint64_t state;
    uint64_t inc;
} lim_rng;

static inline uint32_t lim_next(lim_rng *g) {
    uint64_t old = g->state;
    uint32_t x, rot;
    g->state = old * 6364136223846793005ULL + g->inc;
    x = (uint32_t)(((old >> 18) ^ old) >> 27);
    rot = (uint32_t)(old >> 59);
    return (x >> rot) | (x << ((32 - rot) & 31));
}

static inline void lim_seed(lim_rng *g, uint64_t seed, uint64_t stream) {
    g->state = 0;
    g->inc = (stream << 1) | 1;
    lim_next(g);
    g->state += seed;
    lim_next(g);
}

/* uniform in [0, n), n >= 1: multiply-shift, rejecting the few biased low products */
static inline uint32_t lim_below(lim_rng *g, uint32_t n) {
    uint64_t m = (uint64_t)lim_next(g) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while (low < t) {
            m = (uint64_t)lim_next(g) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A faster generator for the tight loops (m.c, maus_au_chocolat.c): SplitMix64. Its state
 * only advances by a constant (one add on the dependency chain); the output mixing is off
 * it, so consecutive draws overlap in the pipeline. Passes BigCrush; period 2^64. Kept in a
 * local variable by the game loops so that it lives in a register. */
typedef uint64_t lim_fast;

static inline lim_fast lim_fast_seed(uint64_t seed, uint64_t stream) {
    uint64_t z = seed * 0xD1342543DE82EF95ULL + stream * 0x9E3779B97F4A7C15ULL + 1;
    z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ULL;
    return z ^ (z >> 29);
}

static inline uint32_t lim_fast_next(lim_fast *s) { /* the high 32 bits of one SplitMix64 output */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* uniform in [0, n), n >= 1 (the same unbiased multiply-shift as lim_below) */
static inline uint32_t lim_fast_below(lim_fast *s, uint32_t n) {
    uint64_t m = (uint64_t)lim_fast_next(s) * n;
    if ((uint32_t)m < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while ((uint32_t)m < t)
            m = (uint64_t)lim_fast_next(s) * n;
    }
    return (uint32_t)(m >> 32);
}

/* Fisher-Yates */
static inline void lim_shuffle(lim_rng *g, uint8_t *a, int n) {
    int i, j;
    uint8_t t;
    for (i = n - 1; i > 0; i--) {
        j = (int)lim_below(g, (uint32_t)(i + 1));
        t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* ---- bits --------------------------------------------------------------------------------- */

/* Without -mpopcnt (the wheel's flags have no -march) __builtin_popcount is a library call:
 * count bits with SWAR arithmetic (64 bits) or a byte table (16 bits) instead. */
static inline int lim_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

#define LIM_B2(n) n, n + 1, n + 1, n + 2
#define LIM_B4(n) LIM_B2(n), LIM_B2(n + 1), LIM_B2(n + 1), LIM_B2(n + 2)
#define LIM_B6(n) LIM_B4(n), LIM_B4(n + 1), LIM_B4(n + 1), LIM_B4(n + 2)
static const uint8_t LIM_POP8[256] = {LIM_B6(0), LIM_B6(1), LIM_B6(1), LIM_B6(2)};

static inline int lim_popcount16(uint16_t x) { return LIM_POP8[x & 0xFF] + LIM_POP8[x >> 8]; }

#if defined(__GNUC__) || defined(__clang__)
#define lim_ctz64(x) __builtin_ctzll(x)
#else
static inline int lim_ctz64(uint64_t x) {
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}
#endif

/* the index of the k-th (from 0) set bit of x (k < popcount(x)) */
static inline int lim_select64(uint64_t x, int k) {
    while (k-- > 0)
        x &= x - 1;
    return lim_ctz64(x);
}

/* Bit counts per byte (SWAR) and the position of the k-th set bit from them, without a loop:
 * lim_bytes(x) * LIM_ONES holds in byte i the set bits of bytes 0..i (its top byte is the
 * popcount); the byte holding bit k is the number of those prefix sums <= k, found by one
 * subtraction per byte at once; LIM_SEL8 finishes inside the byte. Call lim_fill_select()
 * once before lim_select_pre. */
#define LIM_ONES 0x0101010101010101ULL
#define LIM_HIGHS 0x8080808080808080ULL

static inline uint64_t lim_bytes(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    return (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
}

static uint8_t LIM_SEL8[256][8]; /* LIM_SEL8[b][k]: the k-th set bit of the byte b */

static inline void lim_fill_select(void) {
    int b, i, k;
    for (b = 0; b < 256; b++)
        for (i = 0, k = 0; i < 8; i++)
            if (b >> i & 1)
                LIM_SEL8[b][k++] = (uint8_t)i;
}

/* the k-th set bit of x, pre = lim_bytes(x) * LIM_ONES, k < popcount(x): the bytes whose
 * prefix is at most k keep their high bit in le; the first byte that does not (there is one:
 * the top byte holds the count) holds the bit, and ctz finds it (8 byte + 7) */
static inline int lim_select_pre(uint64_t x, uint64_t pre, uint32_t k) {
    uint64_t le = ((k * LIM_ONES) | LIM_HIGHS) - pre;
    int b8 = lim_ctz64((le & LIM_HIGHS) ^ LIM_HIGHS) - 7;
    uint32_t before = (uint32_t)((pre << 8) >> b8) & 0xFF;
    return b8 + LIM_SEL8[(x >> b8) & 0xFF][k - before];
}

#if defined(__GNUC__) || defined(__clang__)
#define LIM_INLINE static inline __attribute__((always_inline))
#if defined(__clang__)
#define LIM_UNROLL _Pragma("clang loop unroll(full)")
#else
#define LIM_UNROLL _Pragma("GCC unroll 16")
#endif
#define LIM_CLZ64(x) __builtin_clzll(x)
#else
#define LIM_INLINE static inline
#define LIM_UNROLL
static inline int LIM_CLZ64(uint64_t x) {
    int n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
}
#endif

/* ---- time: wall clock, and the CPU time of this process (what the ratio uses: on a busy
 * machine the wall clock also counts the time the process waited for a core) ------------- */

static double lim_now(void) {
#if defined(_WIN32)
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

static double lim_cpu(void) {
#if defined(_WIN32)
    FILETIME created, ended, kernel, user;
    GetProcessTimes(GetCurrentProcess(), &created, &ended, &kernel, &user);
    return 1e-7 * (double)(((uint64_t)user.dwHighDateTime << 32) | user.dwLowDateTime) +
           1e-7 * (double)(((uint64_t)kernel.dwHighDateTime << 32) | kernel.dwLowDateTime);
#else
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

/* ---- command line and report -------------------------------------------------------------- */

typedef struct {
    int players;
    long long games;
    uint64_t seed;
} lim_args;

static int lim_parse(int argc, char **argv, const char *game, int min_players, int max_players, lim_args *a) {
    char *end;
    if (argc != 4) {
        fprintf(stderr, "usage: %s PLAYERS GAMES SEED  (%s: %d-%d players)\n", argv[0], game, min_players,
                max_players);
        return 0;
    }
    a->players = (int)strtol(argv[1], &end, 10);
    if (*end || a->players < min_players || a->players > max_players) {
        fprintf(stderr, "%s: PLAYERS must be from %d to %d, got %s\n", game, min_players, max_players, argv[1]);
        return 0;
    }
    a->games = strtoll(argv[2], &end, 10);
    if (*end || a->games < 1) {
        fprintf(stderr, "%s: GAMES must be at least 1, got %s\n", game, argv[2]);
        return 0;
    }
    a->seed = (uint64_t)strtoull(argv[3], &end, 10);
    if (*end) {
        fprintf(stderr, "%s: SEED must be a non-negative integer, got %s\n", game, argv[3]);
        return 0;
    }
    return 1;
}

/* running sums of the game lengths and of seat 0's scores */
typedef struct {
    long long games, actions;
    double len_sq, score_sum, score_sq;
} lim_stats;

static inline void lim_add(lim_stats *s, long long length, long long score0) {
    s->games += 1;
    s->actions += length;
    s->len_sq += (double)length * (double)length;
    s->score_sum += (double)score0;
    s->score_sq += (double)score0 * (double)score0;
}

static double lim_stderr(double sum, double sq, long long n) {
    double mean, var;
    if (n < 2)
        return 0.0;
    mean = sum / (double)n;
    var = (sq - mean * sum) / (double)(n - 1);
    return var > 0.0 ? sqrt(var / (double)n) : 0.0;
}

static void lim_report(const char *game, const lim_args *a, const lim_stats *s, double seconds, double cpu) {
    double n = (double)s->games;
    printf("{\"game\": \"%s\", \"players\": %d, \"games\": %lld, \"seed\": %llu, \"actions\": %lld, "
           "\"seconds\": %.9f, \"cpu_seconds\": %.9f, \"ns_per_action\": %.4f, \"games_per_s\": %.3f, "
           "\"mean_length\": %.9f, \"length_stderr\": %.9f, "
           "\"mean_score0\": %.9f, \"score0_stderr\": %.9f}\n",
           game, a->players, s->games, (unsigned long long)a->seed, s->actions, seconds, cpu,
           s->actions ? cpu * 1e9 / (double)s->actions : 0.0, cpu > 0 ? n / cpu : 0.0,
           (double)s->actions / n, lim_stderr((double)s->actions, s->len_sq, s->games), s->score_sum / n,
           lim_stderr(s->score_sum, s->score_sq, s->games));
}

#endif

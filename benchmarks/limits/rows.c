/* mousehole: the memory floor of a VectorGame step with observations (issue 10).
 *
 *     cc -O3 -o rows rows.c -lm
 *     ./rows OBS_BYTES MASK_BYTES ENVS PASSES
 *
 * A step with observations writes, for every env in turn, the observation of the seat to move
 * into that env's row of one (ENVS, OBS_BYTES) block and its legal-action mask into its row of
 * one (ENVS, MASK_BYTES) block. This program does only that writing, with no game behind it:
 * each pass sets every env's two rows to zeros (memset) and stores one non-zero value in each,
 * so that the rows are written every pass as a step writes them. The best of 5 rounds of
 * PASSES passes, in CPU nanoseconds per env, is what any implementation that writes every byte
 * of the documented arrays at every step pays at least, on this machine, on one thread.
 * It prints one line of JSON; a bad argument exits with status 2 and one line on stderr.
 */
#include "limits.h"

static long long parse_count(const char *text, const char *name, long long lo, long long hi) {
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "rows: %s must be an integer in [%lld, %lld], got '%s'\n", name, lo, hi, text);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: rows OBS_BYTES MASK_BYTES ENVS PASSES\n");
        return 2;
    }
    size_t obs_bytes = (size_t)parse_count(argv[1], "OBS_BYTES", 4, 1 << 24);
    size_t mask_bytes = (size_t)parse_count(argv[2], "MASK_BYTES", 1, 1 << 24);
    size_t envs = (size_t)parse_count(argv[3], "ENVS", 1, 1 << 20);
    long long passes = parse_count(argv[4], "PASSES", 1, 1LL << 40);
    if (obs_bytes * envs > ((size_t)1 << 32)) {
        fprintf(stderr, "rows: OBS_BYTES * ENVS is over 4 GiB\n");
        return 2;
    }
    unsigned char *obs = malloc(obs_bytes * envs);
    unsigned char *mask = malloc(mask_bytes * envs);
    if (obs == NULL || mask == NULL) {
        fprintf(stderr, "rows: out of memory\n");
        return 2;
    }
    memset(obs, 1, obs_bytes * envs);  /* touch every page before timing */
    memset(mask, 1, mask_bytes * envs);
    const float one = 1.0f;
    double best = 1e300;
    for (int round = 0; round < 5; round++) {
        double t0 = lim_cpu();
        for (long long pass = 0; pass < passes; pass++) {
            for (size_t i = 0; i < envs; i++) {
                unsigned char *o = obs + i * obs_bytes;
                unsigned char *m = mask + i * mask_bytes;
                memset(o, 0, obs_bytes);
                memcpy(o + 4 * (size_t)((pass + (long long)i) % (long long)(obs_bytes / 4)), &one, 4);
                memset(m, 0, mask_bytes);
                m[(size_t)(pass + (long long)i) % mask_bytes] = 1;
            }
        }
        double ns = (lim_cpu() - t0) * 1e9 / ((double)passes * (double)envs);
        if (ns < best) best = ns;
    }
    /* read the rows back, so that no store can be left out */
    unsigned long long checksum = 0;
    for (size_t k = 0; k < obs_bytes * envs; k += 61) checksum += obs[k];
    for (size_t k = 0; k < mask_bytes * envs; k += 7) checksum += mask[k];
    printf("{\"obs_bytes\": %zu, \"mask_bytes\": %zu, \"envs\": %zu, \"passes\": %lld, "
           "\"ns_per_env\": %.3f, \"checksum\": %llu}\n",
           obs_bytes, mask_bytes, envs, passes, best, checksum);
    free(obs);
    free(mask);
    return 0;
}

/* c_rand SEED N DEALS: DEALS deals of the cards 1..N by the textbook shuffle on the C
 * library's rand(), after srand(SEED), each on a fresh array, one line each.
 *
 * The dealer of `seeds recover --runtime c-rand`'s fixtures (tests/fixtures/recover/c-rand-*):
 * built with gcc against the system's C library (glibc on Debian), it deals what glibc's
 * srand()/rand() deal, not our reading of glibc's source.
 *
 *   gcc -O2 -o c_rand scripts/seeded/c_rand.c && ./c_rand 42 52 3
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: c_rand SEED N DEALS\n");
        return 2;
    }
    unsigned int seed = (unsigned int)strtoul(argv[1], NULL, 10);
    int n = atoi(argv[2]), deals = atoi(argv[3]);
    int *deck = malloc(sizeof(int) * (size_t)n);
    srand(seed);
    for (int deal = 0; deal < deals; deal++) {
        for (int i = 0; i < n; i++)
            deck[i] = i + 1;
        for (int i = n - 1; i > 0; i--) {
            int j = rand() % (i + 1);
            int t = deck[i];
            deck[i] = deck[j];
            deck[j] = t;
        }
        for (int i = 0; i < n; i++)
            printf(i ? " %d" : "%d", deck[i]);
        printf("\n");
    }
    free(deck);
    return 0;
}

/* suggest.c: near names, for messages that say what was meant. */
#include <ctype.h>
#include <string.h>
#include "suggest.h"

int name_distance(const char *a, const char *b)
{
    enum { CAP = 9, MAXLEN = 64 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAXLEN || lb >= MAXLEN)
        return CAP;
    int row[MAXLEN + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            int best = diag + !same;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb] < CAP ? row[lb] : CAP;
}

const char *closest_name(const char *typed, const char *const *candidates)
{
    const char *best = NULL;
    int best_d = 3;
    for (const char *const *c = candidates; *c; c++) {
        int d = name_distance(typed, *c);
        if (d < best_d && 2 * d < (int)strlen(typed) + (d == 0)) {
            best = *c;
            best_d = d;
        }
    }
    return best;
}

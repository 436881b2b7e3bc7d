/* outcome.c: names for outcomes and variants. */
#include "result.h"

const char *outcome_word(enum outcome o)
{
    switch (o) {
    case OUT_PASS: return "PASS";
    case OUT_PASS_UNTIMED: return "PASS*";
    case OUT_SLOW: return "SLOW";
    case OUT_MECHANISM: return "MECHANISM";
    case OUT_WRONG: return "WRONG";
    case OUT_COMPILE_ERROR: return "COMPILE";
    case OUT_MISSING: return "MISSING";
    case OUT_CRASH: return "CRASH";
    case OUT_HANG: return "HANG";
    case OUT_RESOURCES: return "RESOURCES";
    case OUT_UNSUPPORTED: return "SKIPPED";
    case OUT_NO_GPU: return "NO GPU";
    case OUT_INTERNAL: return "INTERNAL";
    case OUT_REFUSED: return "REFUSED";
    case OUT_TOO_FAST: return "TOO FAST";
    case OUT_CHECKED: return "CHECKED";
    case OUT_CORRECT: return "CORRECT";
    case OUT_RACE: return "RACE";
    case OUT_NOT_RUN: break;
    }
    return "NOT RUN";
}

int outcome_is_pass(enum outcome o)
{
    return o == OUT_PASS || o == OUT_PASS_UNTIMED;
}

int outcome_holds_without_gpu(enum outcome o)
{
    return o == OUT_CHECKED || o == OUT_CORRECT;
}

const char *variant_name(enum variant v)
{
    switch (v) {
    case V_BASELINE: return "the baseline";
    case V_STUDENT: return "your kernel";
    case V_SOLUTION: return "the reference solution";
    default: return "?";
    }
}

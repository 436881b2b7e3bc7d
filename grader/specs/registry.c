/* registry.c: every lesson's exercise list, in lesson order. Each
 * specs/lessonN.c defines lessonN_exercises[], ending with NULL. */
#include "../spec.h"

#define LESSON(n) extern const exercise *const lesson##n##_exercises[];
LESSON(0) LESSON(1) LESSON(2) LESSON(3) LESSON(4) LESSON(5)
LESSON(6) LESSON(7) LESSON(8) LESSON(9) LESSON(10) LESSON(11) LESSON(12) LESSON(13)
LESSON(14) LESSON(15)
#undef LESSON

const exercise *const *const lesson_exercises[N_LESSONS] = {
    lesson0_exercises, lesson1_exercises, lesson2_exercises, lesson3_exercises,
    lesson4_exercises, lesson5_exercises, lesson6_exercises, lesson7_exercises,
    lesson8_exercises, lesson9_exercises, lesson10_exercises, lesson11_exercises,
    lesson12_exercises, lesson13_exercises, lesson14_exercises, lesson15_exercises,
};

/* Lesson 14 is about the host's side of the bus, which the grader (device
 * code only) cannot grade: see specs/lesson14.c. */
const int lesson_is_measured[N_LESSONS] = { [14] = 1 };

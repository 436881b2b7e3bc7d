// Cheat (tests/gpu/cheats/README.md): hand in the course's reference
// solution by including it. From exercises/lesson3/ the path would be
// "../../solutions/lesson3/matmul.cu"; this folder is three levels deeper.
//
//   build/grader check lesson3 --only matmul --student-dir tests/gpu/cheats/include_solution
#include "../../../../../solutions/lesson3/matmul.cu"

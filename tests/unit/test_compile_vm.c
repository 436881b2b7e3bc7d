/* test_compile_vm.c: the compile child's address-space limit
 * (grader/compile/compile_child.c) when /proc/self/status cannot be read
 * (no /proc in a chroot or container, or no descriptor left): the child
 * still runs its body and comes back whole, its limit then the asked bytes
 * alone. The failure is made by the compile sandbox (compile_sandbox.h),
 * entered for the test: it refuses every open outside its directories, in
 * the child too, which inherits it.
 *
 *   CK_RUN_SUITE=compile_vm build/tests/unit_tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "compile_child.h"
#include "compile_sandbox.h"
#include "suites.h"

static void send_as_limit(void *arg, int fd)
{
    (void)arg;
    struct rlimit as;
    getrlimit(RLIMIT_AS, &as);
    write_all(fd, &as, sizeof as);
}

START_TEST(limit_without_proc)
{
    const size_t mem = (size_t)64 << 30;
    compile_child c;
    const char *dirs[] = {"tests/unit/fixtures"};
    ck_assert_int_eq(sandbox_enter(dirs, 1), 0);
    ck_assert_ptr_null(fopen("/proc/self/status", "r"));
    int started = compile_child_start(&c, send_as_limit, NULL, 10, mem);
    if (started == 0)
        compile_children_wait(&c, 1, 10);
    sandbox_leave();
    ck_assert_int_eq(started, 0);
    ck_assert_msg(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0, "the child ended with "
                  "status %#x", c.status);
    ck_assert_uint_eq(c.len, sizeof(struct rlimit));
    struct rlimit as;
    memcpy(&as, c.out, sizeof as);
    ck_assert_uint_eq(as.rlim_cur, mem);
    ck_assert_uint_eq(as.rlim_max, mem);
    free(c.out);
}
END_TEST

Suite *compile_vm_suite(void)
{
    Suite *s = suite_create("compile_vm");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, limit_without_proc);
    suite_add_tcase(s, tc);
    return s;
}

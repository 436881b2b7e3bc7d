/* launch_occupancy.c: the occupancy of the graded launch (see the header). */
#include "launch_occupancy.h"
#include "occupancy.h"

void launch_occupancy_set(resources *res, const instance *I, const device_facts *dev)
{
    res->launch_blocks_per_sm = 0;
    res->launch_occupancy_pct = -1;
    if (!res->known || res->occupancy_pct < 0)
        return;
    long blocks = (long)I->grid[0] * I->grid[1] * I->grid[2];
    int threads = (int)(I->block[0] * I->block[1] * I->block[2]);
    res->launch_occupancy_pct = occupancy_of_launch(dev, blocks, threads, res->blocks_per_sm,
                                                    &res->launch_blocks_per_sm);
}

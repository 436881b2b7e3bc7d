# measure.mk: measurements that draw the lessons' figures on your own GPU.
#
#   make measure lesson2   copy bandwidth against misalignment and stride
#   make measure lesson14  host-device copies: pageable, pinned, overlapped
#   make sweep lesson9     every prefetch variant against PDIST (lessons 5-10)
#
# Each is two steps, so the numbers can be taken on one machine and drawn on
# another: measure-data / sweep-data write TSV files (with the GPU's name and
# the date) to build/measure/, and plots draws every PNG it has data for.
# The course's own copies, measured on an H100, are in lessons/figures/ and
# grader/calibration/.

MEASURE := $(BUILD)/measure
NVCC := $(CUDA_HOME)/bin/nvcc
SWEEP_PDIST ?= 2,4,6,8,12,16

# `make measure` alone measures every lesson that has a measurement.
MEASURE_LESSONS := $(if $(LESSONS),$(LESSONS),lesson2 lesson14)

.PHONY: measure-data sweep-data plots measure-lesson2 measure-lesson14

$(MEASURE)/%: grader/measure/%.cu | cuda-toolkit
	@mkdir -p $(MEASURE)
	$(NVCC) -O2 -arch=native -o $@ $< 2>/dev/null || $(NVCC) -O2 -arch=sm_75 -o $@ $<

measure-lesson2: $(MEASURE)/coalescing
	$(MEASURE)/coalescing > $(MEASURE)/coalescing.tsv

# About 10 s on an H100; needs 1.25 GiB of host memory (512 MiB pinned).
measure-lesson14: $(MEASURE)/transfers
	$(MEASURE)/transfers > $(MEASURE)/transfers.tsv

measure-data: $(patsubst %,measure-%,$(filter lesson2 lesson14,$(MEASURE_LESSONS)))

measure: measure-data plots

# All prefetch variants at four blocks per SM, where the buffer's bank
# conflicts cost time; lesson 5 has no PDIST (four named registers) and is
# filed under PDIST 4. Padded and index-major buffers get a plot of their own:
# lesson 10's two, lessons 6 and 8 with PADDING 1 (NVIDIA, 2022 pad every
# shared-memory variant; their rows are renamed "...+padded"), and the
# unpadded rolling variants of lessons 7 and 9 repeated for comparison.
sweep-data: full-course $(GRADER)
	@mkdir -p $(MEASURE)
	$(GRADER) check lesson6 lesson7 lesson8 lesson9 --solutions --set BLOCKS_PER_SM=4 \
	  --sweep PDIST=$(SWEEP_PDIST) > $(MEASURE)/prefetch-sweep.tsv
	$(GRADER) check lesson5 --solutions --set BLOCKS_PER_SM=4 --sweep BLOCKDIMX=128 \
	  | awk -F'\t' -v OFS='\t' '$$1 ~ /^[0-9]+$$/ {$$1 = 4; print}' >> $(MEASURE)/prefetch-sweep.tsv
	$(GRADER) check lesson10 --solutions --sweep PDIST=$(SWEEP_PDIST) > $(MEASURE)/prefetch-sweep-padded.tsv
	$(GRADER) check lesson6 lesson8 --solutions --set BLOCKS_PER_SM=4 --set PADDING=1 \
	  --sweep PDIST=$(SWEEP_PDIST) | awk -F'\t' -v OFS='\t' '$$1 ~ /^[0-9]+$$/ {$$2 = $$2 "+padded"; print}' \
	  >> $(MEASURE)/prefetch-sweep-padded.tsv
	awk -F'\t' '$$2 == "lesson7/rolling_regs" || $$2 == "lesson9/rolling_async"' \
	  $(MEASURE)/prefetch-sweep.tsv >> $(MEASURE)/prefetch-sweep-padded.tsv

sweep: sweep-data plots

plots:
	@$(NEED) gnuplot-nox command -v gnuplot
	@if [ -f $(MEASURE)/coalescing.tsv ]; then \
	  gnuplot -e "tsv='$(MEASURE)/coalescing.tsv'; outdir='$(MEASURE)'" grader/measure/coalescing.gp && \
	  echo "Plots: $(MEASURE)/lesson2-offset.png $(MEASURE)/lesson2-stride.png"; fi
	@if [ -f $(MEASURE)/transfers.tsv ]; then \
	  gnuplot -e "tsv='$(MEASURE)/transfers.tsv'; outdir='$(MEASURE)'" grader/measure/transfers.gp && \
	  echo "Plots: $(MEASURE)/lesson14-bandwidth.png $(MEASURE)/lesson14-overlap.png"; fi
	@if [ -f $(MEASURE)/prefetch-sweep.tsv ]; then \
	  gnuplot -e "in='$(MEASURE)/prefetch-sweep.tsv'; out='$(MEASURE)/prefetch-sweep.png'; \
	    ttl='Prefetch variants, no padding (4 blocks of 128 threads per SM)'" grader/measure/prefetch_sweep.gp && \
	  gnuplot -e "in='$(MEASURE)/prefetch-sweep-padded.tsv'; out='$(MEASURE)/prefetch-sweep-padded.png'; \
	    ttl='Padded and index-major buffers (4 blocks of 128 threads per SM)'" grader/measure/prefetch_sweep.gp && \
	  echo "Plots: $(MEASURE)/prefetch-sweep.png $(MEASURE)/prefetch-sweep-padded.png"; fi

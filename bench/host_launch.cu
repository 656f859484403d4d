// How long the host takes to issue one kernel from C++: the figure the step model's host term
// reads per launch (presets/hardware/host_launches.toml, launch_seconds; docs/step-model.md
// "Host time").
//
// A benchmark, not a test, and never built by CMake: bench/gpu_training_step.sh compiles it
// with nvcc on a GPU machine. Prints CSV rows: what,value_us,detail.
//   launch_host     host microseconds per cudaLaunchKernel of an empty kernel, issued back to
//                   back. That this is the host's rate and not the GPU's is read off the next
//                   row: the GPU retires an empty kernel in 0.5 us (measured on an H200), so a
//                   queue of them drains faster than the host fills it.
//   launch_gpu      the same run's GPU time per kernel, bracketing the whole run: equal to
//                   launch_host whenever the host is the slower side (kept for that check)
//   graph_node_gpu  GPU microseconds per kernel node of a captured CUDA graph of empty kernels
//   graph_launch    host microseconds per cudaGraphLaunch of that graph
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void empty_kernel() {}

static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "host_launch: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

int main() {
    constexpr int kLaunches = 200000;
    constexpr int kGraphNodes = 2000;
    constexpr int kGraphReplays = 50;
    cudaStream_t stream;
    check(cudaStreamCreate(&stream), "stream");
    for (int i = 0; i < 1000; ++i) empty_kernel<<<1, 32, 0, stream>>>();  // warm up
    check(cudaStreamSynchronize(stream), "warm-up");

    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
    check(cudaEventRecord(start, stream), "record");
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kLaunches; ++i) empty_kernel<<<1, 32, 0, stream>>>();
    auto t1 = std::chrono::steady_clock::now();
    check(cudaEventRecord(stop, stream), "record");
    check(cudaEventSynchronize(stop), "sync");
    float gpu_ms = 0;
    check(cudaEventElapsedTime(&gpu_ms, start, stop), "elapsed");
    double host_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / kLaunches;
    std::printf("what,value_us,detail\n");
    std::printf("launch_host,%.3f,%d empty kernels issued back to back from C++\n", host_us, kLaunches);
    std::printf("launch_gpu,%.3f,GPU time per kernel over the same run\n", gpu_ms * 1000.0 / kLaunches);

    cudaGraph_t graph;
    cudaGraphExec_t exec;
    check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "capture");
    for (int i = 0; i < kGraphNodes; ++i) empty_kernel<<<1, 32, 0, stream>>>();
    check(cudaStreamEndCapture(stream, &graph), "end capture");
    check(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
    check(cudaGraphLaunch(exec, stream), "graph warm-up");
    check(cudaStreamSynchronize(stream), "sync");
    check(cudaEventRecord(start, stream), "record");
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kGraphReplays; ++i) check(cudaGraphLaunch(exec, stream), "graph launch");
    t1 = std::chrono::steady_clock::now();
    check(cudaEventRecord(stop, stream), "record");
    check(cudaEventSynchronize(stop), "sync");
    check(cudaEventElapsedTime(&gpu_ms, start, stop), "elapsed");
    std::printf("graph_node_gpu,%.3f,GPU time per empty kernel node of a %d-node graph\n",
                gpu_ms * 1000.0 / (kGraphNodes * kGraphReplays), kGraphNodes);
    std::printf("graph_launch,%.3f,host time per cudaGraphLaunch of that graph\n",
                std::chrono::duration<double, std::micro>(t1 - t0).count() / kGraphReplays);
    return 0;
}

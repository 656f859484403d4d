# Included by the top-level CMakeLists.txt: the Debian 12 packages moeplan builds with, and
# the optional parts (PLplot for `moeplan plot`, nvcc + cuBLAS for the CUDA GEMM module).
# All from Debian 12 packages (README "Set-up" installs them).
find_package(CLI11 REQUIRED CONFIG)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(fmt REQUIRED CONFIG)
find_package(tomlplusplus REQUIRED CONFIG)
find_package(nlohmann_json 3 REQUIRED)  # nlohmann-json3-dev: HF config.json in and out
find_package(Threads REQUIRED)
find_package(OpenMP REQUIRED COMPONENTS CXX)  # threads of the CPU GEMM (Eigen)
find_package(dlib REQUIRED CONFIG)   # optimisers of `moeplan fit` (L-BFGS-B, LM), md5
# moeplan_dlib: dlib from its static archive where libdlib-dev ships one (Debian 12 does).
# The shared libdlib.so names libpng, libjpeg, BLAS and LAPACK (and through LAPACK gfortran
# and quadmath) as needed, so every command mapped them at start-up; from the archive only the
# objects `fit` uses come in, and the binary's --as-needed link (src/cli/CMakeLists.txt) keeps
# only the libraries those call (BLAS).
find_library(MOEPLAN_DLIB_ARCHIVE NAMES libdlib.a)
add_library(moeplan_dlib INTERFACE)
if(MOEPLAN_DLIB_ARCHIVE)
  get_target_property(moeplan_dlib_includes dlib::dlib INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(moeplan_dlib_libraries dlib::dlib INTERFACE_LINK_LIBRARIES)
  target_include_directories(moeplan_dlib SYSTEM INTERFACE ${moeplan_dlib_includes})
  target_link_libraries(moeplan_dlib INTERFACE ${MOEPLAN_DLIB_ARCHIVE} ${moeplan_dlib_libraries})
else()
  target_link_libraries(moeplan_dlib INTERFACE dlib::dlib)
endif()
find_library(MOEPLAN_LIBCSV csv REQUIRED)  # libcsv-dev: the CSV parser of `moeplan fit`
find_path(MOEPLAN_LIBCSV_INCLUDE csv.h REQUIRED)

# Optional: PLplot (libplplot-dev, plplot-driver-cairo) renders `moeplan plot`. Without it
# everything else builds unchanged and `moeplan plot` says how to get it (exit 2).
set(MOEPLAN_HAVE_PLOTS OFF)
if(NOT MOEPLAN_WITH_PLOTS STREQUAL "OFF")
  find_package(PkgConfig)
  if(PkgConfig_FOUND)
    pkg_check_modules(PLPLOT IMPORTED_TARGET plplot)
  endif()
  if(PLPLOT_FOUND)
    set(MOEPLAN_HAVE_PLOTS ON)
  elseif(MOEPLAN_WITH_PLOTS STREQUAL "ON")
    message(FATAL_ERROR "MOEPLAN_WITH_PLOTS=ON but pkg-config finds no plplot "
                        "(apt-get install libplplot-dev plplot-driver-cairo)")
  endif()
endif()
message(STATUS "moeplan plot (PLplot): ${MOEPLAN_HAVE_PLOTS}")

# ---- optional CUDA path: bf16 cuBLAS GEMMs for `moeplan bench` ----------------------
set(MOEPLAN_HAVE_CUDA OFF)
if(NOT MOEPLAN_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 80 90)  # A100, H100/H200 (SASS + PTX for later parts)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit)
    if(CUDAToolkit_FOUND AND TARGET CUDA::cublas)
      set(MOEPLAN_HAVE_CUDA ON)
    endif()
  endif()
  if(MOEPLAN_CUDA STREQUAL "ON" AND NOT MOEPLAN_HAVE_CUDA)
    message(FATAL_ERROR "MOEPLAN_CUDA=ON but nvcc or cuBLAS was not found")
  endif()
endif()

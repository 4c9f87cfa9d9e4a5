# grt_model_sample(NAME): the tests of a model sample folder (samples/mlp,
# samples/cnn) holding NAME.mlir, input.npy and expected.npy: compile the
# model with grt-compile, run @main with grt-run on each CPU driver and
# compare its result with expected.npy (grt-run exits nonzero on a
# mismatch). Tests samples_NAME_<device>, label "samples". An optional
# second argument is one more grt-run flag (samples/cnn_int8:
# --expected_f32_threshold=0, an exact comparison).
#
# A sample the compiler cannot run yet is listed in
# samples/known_failures.txt ("NAME REASON..."); its tests are registered
# WILL_FAIL, so they turn red as soon as the model runs and the line has to
# go.
function(grt_model_sample name)
  if(NOT GRT_BUILD_TESTS OR NOT TARGET grt-compile OR NOT TARGET grt-run)
    return()
  endif()
  set(dir "${CMAKE_CURRENT_SOURCE_DIR}")
  file(STRINGS "${GRT_SOURCE_DIR}/samples/known_failures.txt" known
       REGEX "^${name} ")
  if(known)
    string(REGEX REPLACE "^${name} +" "" reason "${known}")
    message(STATUS "samples/${name}: known failure, its tests are registered "
                   "WILL_FAIL: ${reason}")
  endif()
  foreach(device local-sync local-task)
    string(REPLACE "-" "_" suffix "${device}")
    set(test samples_${name}_${suffix})
    set(module "${CMAKE_CURRENT_BINARY_DIR}/${name}.${device}.vmfb")
    add_test(NAME ${test}
             COMMAND sh -c "\"$1\" \"$2\" -o \"$3\" && \"$4\" --module=\"$3\" --function=main --device=$5 --input=@\"$6/input.npy\" --expected_output=@\"$6/expected.npy\" $7"
                     sh $<TARGET_FILE:grt-compile> "${dir}/${name}.mlir"
                     "${module}" $<TARGET_FILE:grt-run> ${device} "${dir}" "${ARGV1}")
    set_tests_properties(${test} PROPERTIES LABELS "samples")
    if(known)
      set_tests_properties(${test} PROPERTIES WILL_FAIL TRUE)
    endif()
    grt_sanitizer_test_environment(${test})
  endforeach()
endfunction()

# grt_model_sample_float(NAME THRESHOLD): for a quantized sample, the test
# samples_NAME_float compares @main's result on local-sync with the float
# model's output (expected_float.npy) within THRESHOLD, the quantization
# error bound scripts/gen_samples.py checks, rounded up.
function(grt_model_sample_float name threshold)
  if(NOT GRT_BUILD_TESTS OR NOT TARGET grt-compile OR NOT TARGET grt-run)
    return()
  endif()
  set(dir "${CMAKE_CURRENT_SOURCE_DIR}")
  set(module "${CMAKE_CURRENT_BINARY_DIR}/${name}.float.vmfb")
  add_test(NAME samples_${name}_float
           COMMAND sh -c "\"$1\" \"$2\" -o \"$3\" && \"$4\" --module=\"$3\" --function=main --input=@\"$5/input.npy\" --expected_output=@\"$5/expected_float.npy\" --expected_f32_threshold=$6"
                   sh $<TARGET_FILE:grt-compile> "${dir}/${name}.mlir" "${module}"
                   $<TARGET_FILE:grt-run> "${dir}" ${threshold})
  set_tests_properties(samples_${name}_float PROPERTIES LABELS "samples")
  grt_sanitizer_test_environment(samples_${name}_float)
endfunction()

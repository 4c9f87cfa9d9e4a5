# cmake --install: the runtime's headers and static libraries, the tools,
# a CMake package (lib/cmake/grt: find_package(grt) gives grt::runtime,
# grt::hal_local_sync, ...) and a pkg-config file (lib/pkgconfig/grt.pc).
# Included last from the top-level CMakeLists.txt, when every target exists.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(GRT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/grt")

# The runtime libraries and their names in the grt:: namespace, in link
# order (each only needs those after it).
set(grt_install_libraries grt_runtime grt_hal_drivers)
get_property(grt_install_drivers GLOBAL PROPERTY GRT_HAL_DRIVER_TARGETS)
list(APPEND grt_install_libraries ${grt_install_drivers})
set(GRT_PC_DRIVER_NAMES "")
foreach(target ${grt_install_drivers})
  string(REGEX REPLACE "^grt_hal_driver_" "" name "${target}")
  string(REPLACE "_" "-" name "${name}")
  list(APPEND GRT_PC_DRIVER_NAMES ${name})
endforeach()
foreach(target grt_hal_local grt_hal grt_vm grt_vm_isa grt_schemas grt_base)
  if(TARGET ${target})
    list(APPEND grt_install_libraries ${target})
  endif()
endforeach()
foreach(target ${grt_install_libraries})
  string(REGEX REPLACE "^grt_" "" export_name "${target}")
  string(REGEX REPLACE "^hal_driver_" "hal_" export_name "${export_name}")
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
endforeach()

install(TARGETS ${grt_install_libraries} EXPORT grtTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/grt")
install(EXPORT grtTargets NAMESPACE grt:: DESTINATION "${GRT_INSTALL_CMAKEDIR}")

# Headers: the embedding API (runtime/session.h) and what it and the HAL,
# VM and kernel ABI headers include. Test helpers stay out.
# (hal/'s subfolders: hal/local is installed on its own, the drivers'
# headers are internal.)
foreach(dir base schemas vm hal hal/local runtime)
  set(grt_install_exclude)
  if(dir STREQUAL "hal")
    set(grt_install_exclude PATTERN "local" EXCLUDE PATTERN "drivers" EXCLUDE)
  endif()
  install(DIRECTORY "${GRT_SOURCE_DIR}/${dir}/"
          DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/grt/${dir}"
          FILES_MATCHING PATTERN "*.h"
          PATTERN "*_matchers.h" EXCLUDE PATTERN "test_*.h" EXCLUDE
          PATTERN "testdata" EXCLUDE PATTERN "testing" EXCLUDE
          ${grt_install_exclude})
endforeach()

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/grtConfig.cmake.in"
  "${CMAKE_BINARY_DIR}/cmake/grtConfig.cmake"
  INSTALL_DESTINATION "${GRT_INSTALL_CMAKEDIR}")
write_basic_package_version_file(
  "${CMAKE_BINARY_DIR}/cmake/grtConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/cmake/grtConfig.cmake"
              "${CMAKE_BINARY_DIR}/cmake/grtConfigVersion.cmake"
        DESTINATION "${GRT_INSTALL_CMAKEDIR}")

# pkg-config: every runtime library in link order, then the system ones.
set(GRT_PC_LIBS "")
foreach(target ${grt_install_libraries})
  string(APPEND GRT_PC_LIBS " -l${target}")
endforeach()
set(GRT_PC_LIBS_PRIVATE "-pthread")
if(CMAKE_DL_LIBS)
  string(APPEND GRT_PC_LIBS_PRIVATE " -l${CMAKE_DL_LIBS}")
endif()
if(GRT_LIBM)
  string(APPEND GRT_PC_LIBS_PRIVATE " -lm")
endif()
if(GRT_HAVE_LIBSODIUM)
  string(APPEND GRT_PC_LIBS_PRIVATE " -lsodium")
endif()
# The prefix relative to the .pc file (${pcfiledir}), so an installed tree
# can be moved.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(GRT_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH grt_pc_up "/grt_prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig"
       "/grt_prefix")
  string(REGEX REPLACE "/$" "" grt_pc_up "${grt_pc_up}")
  set(GRT_PC_PREFIX "\${pcfiledir}/${grt_pc_up}")
endif()
configure_file("${CMAKE_CURRENT_LIST_DIR}/grt.pc.in"
               "${CMAKE_BINARY_DIR}/pkgconfig/grt.pc" @ONLY)
install(FILES "${CMAKE_BINARY_DIR}/pkgconfig/grt.pc"
        DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# The tools that were built.
foreach(tool grt-compile grt-run grt-benchmark grt-check grt-dump grt-sign)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  endif()
endforeach()

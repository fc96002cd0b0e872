# install.cmake — what `cmake --install` puts under the prefix for apps:
# libdama-engine (shared, with SONAME, and static), the public header
# dama/engine.h, a pkg-config file (dama-engine.pc) and a CMake package
# (find_package(dama): targets dama::engine, shared, and dama::engine_static).
# Both the .pc file and the CMake package find the prefix relative to where
# they lie, so `cmake --install build --prefix DIR` works for any DIR.
include(CMakePackageConfigHelpers)

install(TARGETS dama_engine dama_engine_shared EXPORT damaTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/dama/engine.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dama)

set(DAMA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dama)
install(EXPORT damaTargets NAMESPACE dama:: DESTINATION ${DAMA_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/damaConfig.cmake.in
  ${CMAKE_BINARY_DIR}/damaConfig.cmake INSTALL_DESTINATION ${DAMA_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/damaConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/damaConfig.cmake ${CMAKE_BINARY_DIR}/damaConfigVersion.cmake
  DESTINATION ${DAMA_CMAKE_DIR})

# pkg-config: prefix relative to the .pc file (relocatable).
file(RELATIVE_PATH DAMA_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" DAMA_PC_TO_PREFIX "${DAMA_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/dama-engine.pc.in ${CMAKE_BINARY_DIR}/dama-engine.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/dama-engine.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Included by the top-level CMakeLists.txt: what `cmake --install` puts where.
# ---- install: binary, man pages, completions, presets, schemas -----------------------
# Shell completions come from the built binary (generated from its flag definitions).
set(MOEPLAN_COMPLETIONS ${CMAKE_CURRENT_BINARY_DIR}/completions)
add_custom_command(
  OUTPUT ${MOEPLAN_COMPLETIONS}/moeplan ${MOEPLAN_COMPLETIONS}/_moeplan
  COMMAND ${CMAKE_COMMAND} -E make_directory ${MOEPLAN_COMPLETIONS}
  COMMAND moeplan completion bash > ${MOEPLAN_COMPLETIONS}/moeplan
  COMMAND moeplan completion zsh > ${MOEPLAN_COMPLETIONS}/_moeplan
  DEPENDS moeplan
  COMMENT "shell completions from moeplan's flag definitions")
add_custom_target(moeplan_completions ALL
  DEPENDS ${MOEPLAN_COMPLETIONS}/moeplan ${MOEPLAN_COMPLETIONS}/_moeplan)

install(TARGETS moeplan RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY man/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1")
install(FILES ${MOEPLAN_COMPLETIONS}/moeplan
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${MOEPLAN_COMPLETIONS}/_moeplan
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
# The presets are embedded in the binary; the files are installed for reading and copying.
install(DIRECTORY presets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/moeplan/presets
        FILES_MATCHING PATTERN "*.toml")
# The JSON Schemas of the commands' output: embedded too (moeplan schema), installed for tools.
install(DIRECTORY share/moeplan/schemas/ DESTINATION ${CMAKE_INSTALL_DATADIR}/moeplan/schemas
        FILES_MATCHING PATTERN "*.schema.json")

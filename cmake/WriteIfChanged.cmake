# moeplan_write_if_changed(PATH CONTENT): writes CONTENT to PATH only when it differs from
# what is there, so that what depends on a generated file rebuilds only when it changes.
function(moeplan_write_if_changed path content)
  set(old "")
  if(EXISTS "${path}")
    file(READ "${path}" old)
  endif()
  if(NOT old STREQUAL content)
    file(WRITE "${path}" "${content}")
  endif()
endfunction()

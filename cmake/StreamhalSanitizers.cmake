# STREAMHAL_SANITIZE="address;undefined" or "thread" instruments every target.
if(STREAMHAL_SANITIZE)
  string(REPLACE ";" "," _streamhal_san "${STREAMHAL_SANITIZE}")
  add_compile_options(-fsanitize=${_streamhal_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_streamhal_san})
  if("undefined" IN_LIST STREAMHAL_SANITIZE)
    # Debian's glslang is built without RTTI; UBSan's vptr check needs it.
    add_compile_options(-fno-sanitize=vptr)
    add_link_options(-fno-sanitize=vptr)
  endif()
endif()

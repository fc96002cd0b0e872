# Turns a text file IN into a C header OUT defining one string constant,
# named VAR (default: NAME_sql for IN = NAME.sql).
file(READ ${IN} content)
get_filename_component(name ${IN} NAME_WE)
get_filename_component(file_name ${IN} NAME)
if(NOT VAR)
  set(VAR ${name}_sql)
endif()
string(REPLACE "\\" "\\\\" content "${content}")
string(REPLACE "\"" "\\\"" content "${content}")
string(REPLACE "\n" "\\n\"\n\"" content "${content}")
file(WRITE ${OUT}.tmp "/* generated from ${file_name} by cmake/embed_text.cmake — do not edit */\nstatic const char ${VAR}[] =\n\"${content}\";\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)

# Turns a text file IN into a C header OUT defining one string constant.
file(READ ${IN} content)
get_filename_component(name ${IN} NAME_WE)
string(REPLACE "\\" "\\\\" content "${content}")
string(REPLACE "\"" "\\\"" content "${content}")
string(REPLACE "\n" "\\n\"\n\"" content "${content}")
file(WRITE ${OUT}.tmp "/* generated from ${name}.sql by cmake/embed_text.cmake — do not edit */\nstatic const char ${name}_sql[] =\n\"${content}\";\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)

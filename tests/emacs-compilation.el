;; Print what emacs's compilation-mode makes of a file of charscan text
;; output: FILE:LINE:COLUMN:TYPE per message (TYPE 2 error, 1 warning,
;; 0 info).  emacs --batch -Q -l emacs-compilation.el ERRORS DIR
(require 'compile)
(with-temp-buffer
  (insert-file-contents (car command-line-args-left))
  (setq default-directory (file-name-as-directory (cadr command-line-args-left)))
  (compilation-mode)
  (compilation--ensure-parse (point-max))
  (goto-char (point-min))
  (let ((pos (point-min)))
    (while pos
      (let ((msg (get-text-property pos 'compilation-message)))
        (when msg
          (let ((loc (compilation--message->loc msg)))
            (princ (format "%s:%s:%s:%s\n"
                           (caar (compilation--loc->file-struct loc))
                           (compilation--loc->line loc)
                           (compilation--loc->col loc)
                           (compilation--message->type msg))))))
      (setq pos (next-single-property-change pos 'compilation-message)))))
